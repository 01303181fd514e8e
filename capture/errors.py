"""What the capture command refuses: one line naming the cause, exit 2 (capture/README.md).

Kept free of torch, so that the command can report it from any interpreter.
"""


class CaptureError(Exception):
    """A capture that cannot be made from what the user gave (a step that raises, a model
    without parameters, a loss that is not a scalar tensor, an output that cannot be
    written). Its text is the whole message."""


def describe(e: BaseException) -> str:
    """'ValueError: text' (the type alone when there is no text), on one line."""
    text = ' '.join(str(e).split())
    return type(e).__name__ + (': ' + text if text else '')
