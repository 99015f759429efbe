"""How much each fuzz test runs: a few seconds in the default run, much more
under ``pytest -m fuzz`` (the long twin of each test, marked ``fuzz``)."""
from hypothesis import HealthCheck, settings

QUICK = settings(max_examples=60, deadline=None, derandomize=True,
                 suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=3000, deadline=None,
                suppress_health_check=list(HealthCheck))
