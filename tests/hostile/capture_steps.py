"""Step factories that a careless user hands the capture tool (tests/hostile/capture_test.py):
`python3 -m capture module capture_steps:NAME -o OUT.log` with this directory on PYTHONPATH."""

from typing import Any

import torch
import torch.nn as nn

from capture.step import Step


class Raises(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        raise ValueError('shapes do not match')


class NoParameters(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * 2


def _sum(out: Any, target: Any) -> Any:
    return out.sum()


def good(batch: int) -> Step:
    return Step(nn.Linear(4, 4), [torch.randn(batch, 4)], None, _sum)


def factory_raises(batch: int) -> Step:
    raise RuntimeError('cannot download the weights')


def forward_raises(batch: int) -> Step:
    return Step(Raises(), [torch.randn(batch, 4)], None, _sum)


def no_parameters(batch: int) -> Step:
    return Step(NoParameters(), [torch.randn(batch, 4)], None, _sum)


def float_loss(batch: int) -> Step:
    return Step(nn.Linear(4, 4), [torch.randn(batch, 4)], None,
                lambda out, t: float(out.sum()))  # type: ignore


def vector_loss(batch: int) -> Step:
    return Step(nn.Linear(4, 4), [torch.randn(batch, 4)], None, lambda out, t: out)  # type: ignore


def not_a_step(batch: int) -> object:
    return nn.Linear(4, 4)
