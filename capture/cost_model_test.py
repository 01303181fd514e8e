"""The cost model against hand calculations from its documented formula (no torch needed)."""

import unittest

from capture import cost_model
from capture.cost_model import TensorShape


def f32(*shape: int) -> TensorShape:
    n = 1
    for d in shape:
        n *= d
    return TensorShape(tuple(shape), 4, 4 * n)


def ns(flops: int, nbytes: int) -> int:
    # TIME = LAUNCH_NS + max(ceil(flops * 1e9 / PEAK_FLOPS), ceil(bytes * 1e9 / PEAK_BYTES))
    a = -(-flops * 10**9 // cost_model.PEAK_FLOPS)
    b = -(-nbytes * 10**9 // cost_model.PEAK_BYTES_PER_S)
    return cost_model.LAUNCH_NS + max(a, b)


class CostModelTest(unittest.TestCase):

    def test_convolution_counts_multiply_adds_and_bias(self) -> None:
        # 2 x 3 x 10 x 10 input, 8 filters of 3 x 3, padding 1: 2*N*Cout*H*W*Cin*k*k + bias.
        x, w, b, y = f32(2, 3, 10, 10), f32(8, 3, 3, 3), f32(8), f32(2, 8, 10, 10)
        c = cost_model.cost('convolution', [x, w, b], [y], {'transposed': False}, False, [])
        flops = 2 * 2 * 8 * 100 * 3 * 9 + 2 * 8 * 100
        self.assertEqual(c.flops, flops)
        self.assertEqual(c.bytes, x.nbytes + w.nbytes + b.nbytes + y.nbytes)
        self.assertEqual(c.time_ns, ns(flops, c.bytes))
        self.assertTrue(c.known)

    def test_convolution_backward_follows_its_output_mask(self) -> None:
        g, x, w = f32(2, 8, 10, 10), f32(2, 3, 10, 10), f32(8, 3, 3, 3)
        forward = 2 * 2 * 8 * 100 * 3 * 9
        both = cost_model.cost('convolution_backward', [g, x, w], [x, w],
                               {'transposed': False, 'output_mask': [True, True, False]}, False, [])
        weight_only = cost_model.cost('convolution_backward', [g, x, w], [w],
                                      {'transposed': False, 'output_mask': [False, True, True]},
                                      False, [])
        self.assertEqual(both.flops, 2 * forward)
        self.assertEqual(weight_only.flops, forward + g.numel)

    def test_matrix_products(self) -> None:
        a, b, bias = f32(64, 128), f32(128, 32), f32(32)
        self.assertEqual(cost_model.cost('mm', [a, b], [f32(64, 32)], {}, False, []).flops,
                         2 * 64 * 128 * 32)
        self.assertEqual(cost_model.cost('addmm', [bias, a, b], [f32(64, 32)], {}, False,
                                         []).flops, 2 * 64 * 128 * 32 + 64 * 32)
        self.assertEqual(cost_model.cost('bmm', [f32(4, 8, 16), f32(4, 16, 2)], [f32(4, 8, 2)],
                                         {}, False, []).flops, 2 * 4 * 8 * 16 * 2)

    def test_a_large_matrix_product_is_compute_bound(self) -> None:
        a, b, y = f32(4096, 4096), f32(4096, 4096), f32(4096, 4096)
        c = cost_model.cost('mm', [a, b], [y], {}, False, [])
        want = cost_model.LAUNCH_NS + -(-c.flops * 10**9 // cost_model.PEAK_FLOPS)
        self.assertEqual(c.time_ns, want)

    def test_elementwise_is_memory_bound_and_views_cost_view_ns(self) -> None:
        x = f32(1 << 20)
        c = cost_model.cost('relu', [x], [x], {}, False, [])
        want = cost_model.LAUNCH_NS + -(-2 * x.nbytes * 10**9 // cost_model.PEAK_BYTES_PER_S)
        self.assertEqual(c.time_ns, want)
        self.assertEqual(cost_model.cost('view', [x], [], {}, True, []).time_ns,
                         cost_model.VIEW_NS)

    def test_in_place_writes_count_twice(self) -> None:
        x, y = f32(1000), f32(1000)
        c = cost_model.cost('add_', [x, y], [], {}, False, [x])
        self.assertEqual(c.bytes, 3 * x.nbytes)

    def test_unknown_operator_falls_back_to_bytes_and_says_so(self) -> None:
        x = f32(1000)
        c = cost_model.cost('some_new_operator', [x], [x], {}, False, [])
        self.assertFalse(c.known)
        self.assertEqual(c.flops, 0)
        self.assertEqual(c.time_ns, ns(0, 2 * x.nbytes))


if __name__ == '__main__':
    unittest.main()
