from hbs.strategies import ConsistentBot


class NoDoc(ConsistentBot):
    def choose(self, history, subset):
        return self.space.text(subset[0])
