"""One training step of a torch.nn.Module under the Recorder: forward, loss, backward, and
optionally an optimizer step."""

import random
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence

import torch

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
    optimizer = step.optimizer(params) if step.optimizer else None
    constants: List[torch.Tensor] = list(params) + list(model.buffers()) + list(step.inputs)
    if step.target is not None:
        constants.append(step.target)
    recorder = Recorder(time_mode=time_mode, account=account)
    with recorder:
        recorder.start()
        recorder.bind_inputs(constants)
        del constants
        loss = step.loss_fn(model(*step.inputs), step.target)
        recorder.backward()
        loss.backward()
        del loss
        if optimizer is not None:
            optimizer.step()
        recorder.finish()
    return Capture(recorder.log.text(), recorder.stats, dict(recorder.log.counts))
