"""Tiny models whose steps exercise every case the recorder handles (capture_test.py).

Each function takes a batch size and returns a Step, like the zoo's entries, so that
`python3 -m capture module capture.tiny_models:NAME -o OUT.log` captures it too.
"""

from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

from capture.step import Step


class ViewChains(nn.Module):
    """Views of views (view, transpose, slices, expand, unbind) read by later operators."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(16, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.linear(x)  # [B, 16]
        v = h.view(-1, 4, 4).transpose(1, 2)[:, 1:, :]  # a chain of three views
        rows = v.unbind(1)  # a tuple of views
        e = rows[0].unsqueeze(1).expand(-1, 3, -1)
        return (e * v).sum(dim=(1, 2)) + rows[-1].sum(1)


def _as_tensor(out: object) -> torch.Tensor:
    assert isinstance(out, torch.Tensor)
    return out


def views(batch: int) -> Step:
    x = torch.randn(batch, 16)
    return Step(ViewChains(), [x], None, lambda out, t: _as_tensor(out).sum())


class InPlace(nn.Module):
    """In-place operators on a tensor with live views (relu_, add_, mul_ through a view) and
    an argument read through `.data` (a TensorImpl the dispatcher never made: a COPY)."""

    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Linear(8, 8)
        self.b = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.a(x)
        top = h[:, :4]  # a view that lives across the in-place operators below
        h = F.relu(h, inplace=True)
        h = h + 1.0
        h.add_(self.b(x))
        scaled = h * self.b.weight.data.sum()  # .data: a second TensorImpl on the weight
        return scaled.sum() + top.sum()


def inplace_sgd(batch: int) -> Step:
    x = torch.randn(batch, 8)
    return Step(InPlace(), [x], None, lambda out, t: out,  # type: ignore[arg-type,return-value]
                lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9))


class MultiOutput(nn.Module):
    """split, an LSTM, and max with indices."""

    def __init__(self) -> None:
        super().__init__()
        self.lstm = nn.LSTM(6, 6, num_layers=1)
        self.proj = nn.Linear(6, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        first, second = x.split(3, dim=0)  # [3, B, 6] each: a tuple of views
        out, (h, c) = self.lstm(first + second)
        values, indices = self.proj(out).max(dim=-1)  # two results, one of them integers
        return values.sum() + h.sum() + c.sum() + indices.float().mean()


def multi_output(batch: int) -> Step:
    x = torch.randn(6, batch, 6)
    return Step(MultiOutput(), [x], None, lambda out, t: out)  # type: ignore[arg-type,return-value]


class Lifetimes(nn.Module):
    """A large tensor released at once and one kept until after the step (stored on the
    module), so that releases come both early and late."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(32, 32)
        self.kept = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scratch = torch.ones(x.shape[0], 4096)  # freed right after its only use
        total = scratch.sum()
        del scratch
        y = self.linear(x).tanh()
        self.kept = (y * 2).detach()  # outlives the step
        return y.sum() + total


def lifetimes(batch: int) -> Step:
    x = torch.randn(batch, 32)
    return Step(Lifetimes(), [x], None, lambda out, t: out)  # type: ignore[arg-type,return-value]


class Shared(nn.Module):
    """One Linear applied three times: its parameters are shared, its gradients accumulate."""

    def __init__(self) -> None:
        super().__init__()
        self.layer = nn.Linear(12, 12)
        self.alias = self.layer  # the same module registered under a second name

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.alias(torch.relu(self.layer(torch.relu(self.layer(x)))))


def shared(batch: int) -> Step:
    x = torch.randn(batch, 12)
    y = torch.randint(0, 12, (batch,))
    return Step(Shared(), [x], y, lambda out, t: F.cross_entropy(out, t),  # type: ignore
                lambda ps: torch.optim.Adam(ps, lr=1e-3))


class FlatParameters(nn.Module):
    """Parameters that are views of one flat buffer, as FSDP and ZeRO lay them out: the
    first one enters as a CONSTANT of the whole buffer, the others as COPYs of it."""

    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Linear(6, 6)
        self.b = nn.Linear(6, 3)
        params = list(self.parameters())
        flat = torch.cat([p.detach().reshape(-1) for p in params])
        offset = 0
        for p in params:
            p.data = flat[offset:offset + p.numel()].view_as(p)
            offset += p.numel()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.b(torch.sigmoid(self.a(x)))


class DataAssignSGD(torch.optim.Optimizer):
    """Plain SGD written the pre-0.4 way, `p.data = p.data - lr * p.grad`: the parameter's
    TensorImpl moves to a new storage without an operator (a COPY_FROM)."""

    def __init__(self, params: Any, lr: float) -> None:
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self, closure: Any = None) -> None:  # type: ignore[override]
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    p.data = p.data - group['lr'] * p.grad
        return None


def flat_parameters(batch: int) -> Step:
    x = torch.randn(batch, 6)
    y = torch.randint(0, 3, (batch,))
    return Step(FlatParameters(), [x], y, lambda out, t: F.cross_entropy(out, t),  # type: ignore
                lambda ps: DataAssignSGD(ps, lr=0.1))


ALL = {'views': views, 'inplace_sgd': inplace_sgd, 'multi_output': multi_output,
       'lifetimes': lifetimes, 'shared': shared, 'flat_parameters': flat_parameters}
