"""Where a bot runs: its confined processes (mechanisms, launcher, seccomp, Landlock, capabilities), the worker and its line protocol, builds, compile caches."""
