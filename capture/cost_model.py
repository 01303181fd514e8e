"""The deterministic TIME of a captured operator: a roofline on a reference accelerator.

Every constant of the cost model lives here (capture/README.md explains them). An operator
costs

    TIME = LAUNCH_NS + max(ceil(flops * 1e9 / PEAK_FLOPS), ceil(bytes * 1e9 / PEAK_BYTES_PER_S))

nanoseconds, where flops come from a formula per operator (matrix products and
convolutions exactly, element-wise and reduction operators as a few flops per element)
and bytes are the bytes of the tensors it reads plus those it writes. An operator whose
outputs are all views costs VIEW_NS (no kernel runs). An operator this module does not
know is costed by its bytes alone and named in the capture's summary, so that a reader
sees where the model guessed. All arithmetic is on Python integers: the same shapes give
the same TIME on every machine.
"""

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

# The reference accelerator: an NVIDIA A100 (40 GB, SXM) at its FP32 rates without
# tensor cores (the default for matmul in PyTorch >= 1.12), as its data sheet states.
REFERENCE = 'NVIDIA A100-SXM4-40GB, FP32 (no TF32)'
PEAK_FLOPS = 19_500_000_000_000  # FP32 FLOP/s
PEAK_BYTES_PER_S = 1_555_000_000_000  # HBM2 bandwidth, bytes/s
LAUNCH_NS = 5_000  # per kernel: launch and framework overhead on the host
VIEW_NS = 1_000  # an operator that only makes views: metadata on the host, no kernel

NAME = 'roofline-a100-fp32-v1'

# Floating-point operations per output element of element-wise operators (the transcendental
# ones are counted as a handful of instructions; they are memory-bound on the reference
# accelerator either way).
ELEMENTWISE_FLOPS: Dict[str, int] = {
    'abs': 1, 'add': 1, 'add_': 1, 'addcdiv': 3, 'addcdiv_': 3, 'addcmul': 3, 'addcmul_': 3,
    'bernoulli_': 2, 'clamp': 2, 'clamp_min': 1, 'clamp_min_': 1, 'clone': 0, 'copy_': 0,
    'div': 1, 'div_': 1, 'elu': 4, 'elu_backward': 4, 'embedding_dense_backward': 1, 'eq': 1,
    'exp': 4, 'fill_': 0, 'gelu': 8, 'gelu_backward': 12, 'hardsigmoid': 3,
    'hardsigmoid_backward': 3, 'hardswish': 4, 'hardswish_': 4, 'hardswish_backward': 6,
    'hardtanh': 2, 'hardtanh_backward': 2, 'leaky_relu': 2, 'leaky_relu_backward': 2,
    'lerp_': 3, 'log': 4, 'masked_fill': 1, 'masked_fill_': 1, 'maximum': 1, 'minimum': 1,
    'mul': 1, 'mul_': 1, 'native_dropout': 3, 'native_dropout_backward': 2, 'neg': 1,
    'ones_like': 0, 'pow': 4, 'reciprocal': 1, 'relu': 1, 'relu_': 1, 'rsqrt': 2,
    'sigmoid': 4, 'sigmoid_': 4, 'sigmoid_backward': 3, 'silu': 5, 'silu_backward': 7,
    'sqrt': 2, 'sqrt_': 2, 'sub': 1, 'sub_': 1, 'tanh': 4, 'tanh_': 4, 'tanh_backward': 3,
    'threshold_backward': 1, 'where': 1, 'zero_': 0, 'zeros_like': 0, 'empty': 0,
    'empty_like': 0, 'zeros': 0, 'ones': 0, 'full': 0, 'scalar_tensor': 0, 'lift_fresh': 0,
    'cat': 0, 'stack': 0, 'constant_pad_nd': 0, 'index_select': 0, 'embedding': 0,
    'slice_backward': 0, 'select_backward': 0, 'index': 0, 'index_put_': 1, 'gather': 0,
    'scatter_add': 1, 'repeat': 0, '_to_copy': 0, 'masked_fill_backward': 1, 'tril': 0,
    'triu': 0, 'arange': 0, 'rand_like': 2, 'normal_': 4, 'uniform_': 2, 'bitwise_not': 1,
    'logical_not': 1, 'lt': 1, 'gt': 1, 'le': 1, 'ge': 1, 'ne': 1, '_foreach_add_': 1,
    '_foreach_mul_': 1, '_foreach_addcmul_': 3, '_foreach_addcdiv_': 3, '_foreach_sqrt': 2,
    '_foreach_add': 1, '_foreach_div': 1, '_foreach_mul': 1, '_foreach_zero_': 0,
}

# Reductions and normalizations: flops per element of the largest tensor involved.
REDUCTION_FLOPS: Dict[str, int] = {
    'sum': 1, 'mean': 1, 'amax': 1, 'max': 1, 'min': 1, 'argmax': 1, 'var_mean': 3,
    'norm': 2, 'linalg_vector_norm': 2, '_softmax': 5, '_softmax_backward_data': 3,
    '_log_softmax': 5, '_log_softmax_backward_data': 3, 'native_layer_norm': 8,
    'native_layer_norm_backward': 12, 'native_batch_norm': 8,
    'native_batch_norm_backward': 12, 'nll_loss_forward': 1, 'nll_loss_backward': 1,
    'nll_loss2d_forward': 1, 'nll_loss2d_backward': 1, 'mse_loss': 3,
    'mse_loss_backward': 3, 'avg_pool2d': 1, 'avg_pool2d_backward': 1,
    'adaptive_avg_pool2d': 1, '_adaptive_avg_pool2d': 1, '_adaptive_avg_pool2d_backward': 1,
    'max_pool2d_with_indices': 1, 'max_pool2d_with_indices_backward': 1,
    'upsample_nearest2d': 1, 'upsample_nearest2d_backward': 1, 'upsample_bilinear2d': 8,
    'upsample_bilinear2d_backward': 8, 'cumsum': 1, 'topk': 4, 'sort': 8,
}


@dataclass(frozen=True)
class TensorShape:
    """What the cost model needs to know of a tensor."""
    shape: Tuple[int, ...]
    element_size: int
    nbytes: int  # the bytes an operator touches: numel * element_size, at most the storage's

    @property
    def numel(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


@dataclass(frozen=True)
class Cost:
    time_ns: int
    flops: int
    bytes: int
    known: bool  # False: the operator fell back to the bytes-only roofline


def _product(xs: Sequence[int]) -> int:
    n = 1
    for x in xs:
        n *= x
    return n


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def roofline_ns(flops: int, bytes_moved: int) -> int:
    return LAUNCH_NS + max(_ceil_div(flops * 1_000_000_000, PEAK_FLOPS),
                           _ceil_div(bytes_moved * 1_000_000_000, PEAK_BYTES_PER_S))


def _conv_flops(weight: TensorShape, out: TensorShape, inp: TensorShape, transposed: bool) -> int:
    """2 * multiply-adds of a (possibly transposed, grouped) convolution."""
    kernel = _product(weight.shape[2:])
    if transposed:  # weight is [C_in, C_out / groups, k...]; every input pixel scatters
        c_in, c_out_per_group = weight.shape[0], weight.shape[1]
        return 2 * inp.shape[0] * c_in * _product(inp.shape[2:]) * c_out_per_group * kernel
    c_out, c_in_per_group = weight.shape[0], weight.shape[1]  # weight holds C_in / groups
    return 2 * out.shape[0] * c_out * _product(out.shape[2:]) * c_in_per_group * kernel


def matmul_flops(op: str, inputs: List[Optional[TensorShape]], outputs: List[TensorShape],
                 scalars: Dict[str, object]) -> Optional[int]:
    """Exact flops of the matrix products and convolutions; None for other operators."""
    t = inputs
    if op == 'mm' and len(t) >= 2 and t[0] and t[1]:
        n, k = t[0].shape
        return 2 * n * k * t[1].shape[1]
    if op == 'addmm' and len(t) >= 3 and t[1] and t[2]:
        n, k = t[1].shape
        m = t[2].shape[1]
        return 2 * n * k * m + n * m
    if op == 'bmm' and len(t) >= 2 and t[0] and t[1]:
        b, n, k = t[0].shape
        return 2 * b * n * k * t[1].shape[2]
    if op == 'baddbmm' and len(t) >= 3 and t[1] and t[2]:
        b, n, k = t[1].shape
        m = t[2].shape[2]
        return 2 * b * n * k * m + b * n * m
    if op == 'convolution' and len(t) >= 2 and t[0] and t[1] and outputs:
        flops = _conv_flops(t[1], outputs[0], t[0], bool(scalars.get('transposed', False)))
        if len(t) > 2 and t[2]:
            flops += outputs[0].numel
        return flops
    if op == 'convolution_backward' and len(t) >= 3 and t[0] and t[1] and t[2]:
        mask = list(scalars.get('output_mask', [True, True, True]))  # type: ignore[call-overload]
        grad_out, inp, weight = t[0], t[1], t[2]
        forward = _conv_flops(weight, grad_out, inp, bool(scalars.get('transposed', False)))
        flops = forward * (int(bool(mask[0])) + int(bool(mask[1])))
        if mask[2]:
            flops += grad_out.numel
        return flops
    return None


def base_name(schema_name: str) -> str:
    """'aten::add_' -> 'add_'."""
    return schema_name.split('::', 1)[-1]


def cost(op: str, inputs: List[Optional[TensorShape]], outputs: List[TensorShape],
         scalars: Dict[str, object], views_only: bool, written: List[TensorShape]) -> Cost:
    """The TIME of one operator from its shapes.

    inputs: the tensor arguments in order (None for an absent optional tensor); outputs: the
    tensors it creates (views excluded); scalars: its non-tensor arguments by name;
    written: the arguments it writes in place (counted once more as bytes moved).
    """
    if views_only:
        return Cost(VIEW_NS, 0, 0, True)
    bytes_moved = sum(x.nbytes for x in inputs if x) + sum(x.nbytes for x in outputs)
    bytes_moved += sum(x.nbytes for x in written)
    flops = matmul_flops(op, inputs, outputs, scalars)
    known = True
    if flops is None:
        largest = max([x.numel for x in inputs if x] + [x.numel for x in outputs] + [0])
        if op in ELEMENTWISE_FLOPS:
            flops = ELEMENTWISE_FLOPS[op] * largest
        elif op in REDUCTION_FLOPS:
            flops = REDUCTION_FLOPS[op] * largest
        else:
            flops = 0
            known = False
    return Cost(roofline_ns(flops, bytes_moved), flops, bytes_moved, known)
