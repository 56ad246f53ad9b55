"""Defines no subclass of hbs.Bot."""


class NotABot:
    """Has a guess method, but is not a Bot."""

    def guess(self, history):
        return "1122"
