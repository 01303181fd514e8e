"""One training step of a torch.nn.Module under the Recorder: forward, loss, backward, and
optionally an optimizer step."""

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

import torch

from capture.errors import CaptureError, describe
from capture.recorder import CaptureStats, Recorder


@dataclass
class Step:
    """What a capture runs: model(*inputs) -> loss_fn(output, target) -> backward."""
    model: torch.nn.Module
    inputs: Sequence[torch.Tensor]
    target: Optional[torch.Tensor]
    loss_fn: Callable[[object, Optional[torch.Tensor]], torch.Tensor]
    optimizer: Optional[Callable[[List[torch.nn.Parameter]], torch.optim.Optimizer]] = None


@dataclass
class Capture:
    text: str  # the log
    stats: CaptureStats
    instructions: Dict[str, int] = field(default_factory=dict)


def seed_everything(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)


def unique_parameters(model: torch.nn.Module) -> List[torch.nn.Parameter]:
    """Parameters in registration order, a shared one once."""
    seen, out = set(), []
    for p in model.parameters():
        if id(p) not in seen:
            seen.add(id(p))
            out.append(p)
    return out


def check_step(step: object, what: str) -> Step:
    """`step` (what `what` returned) if it is a Step a capture can run; CaptureError if not."""
    if not isinstance(step, Step):
        raise CaptureError('{} returned {}, not a capture.step.Step'.format(
            what, type(step).__name__))
    if not isinstance(step.model, torch.nn.Module):
        raise CaptureError("{}: the Step's model is {}, not a torch.nn.Module".format(
            what, type(step.model).__name__))
    bad = [type(x).__name__ for x in step.inputs if not isinstance(x, torch.Tensor)]
    if bad:
        raise CaptureError("{}: the Step's inputs must be tensors, got {}".format(
            what, ', '.join(bad)))
    if not unique_parameters(step.model) and not any(x.requires_grad for x in step.inputs):
        raise CaptureError('{}: the model has no parameters (and no input requires grad): '
                           'a training step has nothing to differentiate'.format(what))
    return step


def _checked_loss(loss: object) -> torch.Tensor:
    if not isinstance(loss, torch.Tensor):
        raise CaptureError('the loss function returned {}, not a tensor (return a scalar '
                           'tensor that requires grad, e.g. out.sum())'.format(
                               type(loss).__name__))
    if loss.numel() != 1:
        raise CaptureError('the loss function returned a tensor of shape {}, not a scalar'
                           .format(list(loss.shape)))
    if not loss.requires_grad:
        raise CaptureError('the loss does not require grad (it does not depend on any '
                           'parameter): nothing to differentiate')
    return loss


def _run(what: str, f: Callable[..., Any], *args: Any) -> Any:
    """f(*args), with any exception of the user's code as a CaptureError naming the phase."""
    try:
        return f(*args)
    except CaptureError:
        raise
    except Exception as e:  # the user's model, loss or optimizer: any error is theirs
        raise CaptureError('{} raised {}'.format(what, describe(e))) from e


def capture_step(step: Step, time_mode: str = 'roofline', account: bool = True) -> Capture:
    """Runs one step of `step` and returns its log.

    The model is put in training mode; gradients start empty. Parameters, buffers, inputs
    and the target are CONSTANTs (in that order); the step's own tensors are released as
    PyTorch frees them, and whatever is still alive at the end (parameters, gradients,
    optimizer state) stays bound, which simrd pins as the step's outputs.
    """
    model = step.model
    model.train()
    params = unique_parameters(model)
    for p in params:
        p.grad = None
    optimizer = _run('the optimizer factory', step.optimizer, params) if step.optimizer else None
    constants: List[torch.Tensor] = list(params) + list(model.buffers()) + list(step.inputs)
    if step.target is not None:
        constants.append(step.target)
    recorder = Recorder(time_mode=time_mode, account=account)
    with recorder:
        recorder.start()
        recorder.bind_inputs(constants)
        del constants
        out = _run("the model's forward", model, *step.inputs)
        loss = _checked_loss(_run('the loss function', step.loss_fn, out, step.target))
        del out
        recorder.backward()
        _run('backward', loss.backward)
        del loss
        if optimizer is not None:
            _run("the optimizer's step", optimizer.step)
        recorder.finish()
    return Capture(recorder.log.text(), recorder.stats, dict(recorder.log.counts))
