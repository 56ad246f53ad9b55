"""Kills its own process: option how=exit|kill."""
import os
import signal

from hbs import Bot


class Suicide(Bot):
    """Ends its own process."""

    def __init__(self, how: str = "exit"):
        self.how = how

    def guess(self, history):
        if self.how == "exit":
            os._exit(3)
        os.kill(os.getpid(), signal.SIGKILL)
