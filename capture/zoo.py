"""The model zoo: today's models, random weights, small batches (no download anywhere).

Each entry builds a Step (capture/step.py) from a seed. The torchvision models come with
weights=None; the U-Net, the GPT-2-small-shaped decoder and the LSTM language model are
built here from torch.nn layers.
"""

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

from capture.step import Step


@dataclass(frozen=True)
class ZooModel:
    name: str  # the trace's short name
    title: str
    description: str
    batch: int  # the zoo's batch size
    build: Callable[[int], Step]  # batch -> Step


def _classification(model: nn.Module, batch: int, image: int, classes: int) -> Step:
    x = torch.randn(batch, 3, image, image)
    y = torch.randint(0, classes, (batch,))
    return Step(model, [x], y, _cross_entropy)


def _cross_entropy(out: object, target: Optional[torch.Tensor]) -> torch.Tensor:
    assert isinstance(out, torch.Tensor) and target is not None
    return F.cross_entropy(out, target)


def _torchvision(name: str) -> Callable[[int], Step]:
    def build(batch: int) -> Step:
        import torchvision  # only the torchvision entries need it
        model = getattr(torchvision.models, name)(weights=None)
        return _classification(model, batch, 224, 1000)
    return build


class UNet(nn.Module):
    """Ronneberger et al.'s U-Net (padded convolutions, batch norm), four levels down."""

    def __init__(self, channels: int = 3, classes: int = 2, base: int = 32, depth: int = 4):
        super().__init__()

        def block(cin: int, cout: int) -> nn.Sequential:
            return nn.Sequential(
                nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                nn.ReLU(inplace=True),
                nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                nn.ReLU(inplace=True))

        widths = [base * 2 ** i for i in range(depth + 1)]
        self.down = nn.ModuleList([block(channels, widths[0])] +
                                  [block(widths[i], widths[i + 1]) for i in range(depth)])
        self.up = nn.ModuleList([nn.ConvTranspose2d(widths[i + 1], widths[i], 2, stride=2)
                                 for i in reversed(range(depth))])
        self.merge = nn.ModuleList([block(widths[i] * 2, widths[i])
                                    for i in reversed(range(depth))])
        self.head = nn.Conv2d(widths[0], classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        skips: List[torch.Tensor] = []
        for i, level in enumerate(self.down):
            if i > 0:
                x = F.max_pool2d(x, 2)
            x = level(x)
            skips.append(x)
        skips.pop()
        for up, merge in zip(self.up, self.merge):
            x = merge(torch.cat([skips.pop(), up(x)], dim=1))
        return self.head(x)


def _unet(batch: int) -> Step:
    model = UNet()
    x = torch.randn(batch, 3, 256, 256)
    y = torch.randint(0, 2, (batch, 256, 256))
    return Step(model, [x], y, _cross_entropy)


class Decoder(nn.Module):
    """A GPT-2-small-shaped decoder: 12 pre-norm blocks of width 768 with 12 heads and a
    3072-wide GELU MLP, learned positions, a causal mask, and the output projection tied to
    the token embedding (a parameter shared between two layers)."""

    def __init__(self, vocab: int = 50257, context: int = 1024, width: int = 768,
                 layers: int = 12, heads: int = 12):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Embedding(context, width)
        self.dropout = nn.Dropout(0.1)
        layer = nn.TransformerEncoderLayer(width, heads, dim_feedforward=4 * width, dropout=0.1,
                                           activation='gelu', batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)
        self.head.weight = self.tokens.weight

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        length = ids.shape[1]
        mask = torch.triu(torch.full((length, length), float('-inf')), diagonal=1)
        x = self.dropout(self.tokens(ids) + self.positions(torch.arange(length)))
        return self.head(self.norm(self.blocks(x, mask=mask)))


def _next_token_loss(logits: object, ids: Optional[torch.Tensor]) -> torch.Tensor:
    assert isinstance(logits, torch.Tensor) and ids is not None
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))


def _gpt2(batch: int) -> Step:
    model = Decoder()
    ids = torch.randint(0, 50257, (batch, 256))
    return Step(model, [ids], ids, _next_token_loss)


class LstmLanguageModel(nn.Module):
    """Zaremba et al.'s medium LSTM language model: embedding, two LSTM layers with dropout,
    and an output projection over the vocabulary."""

    def __init__(self, vocab: int = 10000, width: int = 650, layers: int = 2):
        super().__init__()
        self.embedding = nn.Embedding(vocab, width)
        self.dropout = nn.Dropout(0.5)
        self.lstm = nn.LSTM(width, width, layers, dropout=0.5, batch_first=True)
        self.head = nn.Linear(width, vocab)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        out, _ = self.lstm(self.dropout(self.embedding(ids)))
        return self.head(self.dropout(out))


def _lstm_lm(batch: int) -> Step:
    model = LstmLanguageModel()
    ids = torch.randint(0, 10000, (batch, 36))
    return Step(model, [ids], ids, _next_token_loss)


MODELS: Dict[str, ZooModel] = {m.name: m for m in [
    ZooModel('resnet50', 'ResNet-50 (torchvision)', '224x224 images, 1000 classes', 8,
             _torchvision('resnet50')),
    ZooModel('mobilenet_v3_large', 'MobileNetV3-Large (torchvision)',
             '224x224 images, 1000 classes', 8, _torchvision('mobilenet_v3_large')),
    ZooModel('vit_b_16', 'ViT-B/16 (torchvision)', '224x224 images, 1000 classes', 8,
             _torchvision('vit_b_16')),
    ZooModel('convnext_tiny', 'ConvNeXt-Tiny (torchvision)', '224x224 images, 1000 classes', 8,
             _torchvision('convnext_tiny')),
    ZooModel('unet_bn', 'U-Net (4 levels, base 32, batch norm)',
             '256x256 RGB images, 2 classes per pixel', 4, _unet),
    ZooModel('gpt2_small', 'GPT-2-small-shaped decoder (torch.nn, tied embeddings)',
             '256 tokens, vocabulary 50257, causal mask', 4, _gpt2),
    ZooModel('lstm_lm', 'LSTM language model (2 x 650, Zaremba medium)',
             '36 tokens (35 predicted), vocabulary 10000', 32, _lstm_lm),
]}
