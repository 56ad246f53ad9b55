"""Searches its own process for the secret (an Oracle object, or a local called secret)."""
import gc
import sys

from hbs.strategies import ConsistentBot


def stolen():
    for obj in gc.get_objects():
        if type(obj).__name__ == "Oracle":
            return type(obj)._secret.__get__(obj)
    for frame in sys._current_frames().values():
        while frame is not None:
            if isinstance(frame.f_locals.get("secret"), str):
                return frame.f_locals["secret"]
            frame = frame.f_back
    return None


class Snoop(ConsistentBot):
    """Guesses the secret at once if it can find it in its own process."""

    def guess(self, history):
        return stolen() or super().guess(history)

    def choose(self, history, subset):
        return self.space.text(subset[0])
