"""The environment the CLI test scripts run memkit in: no MEMKIT_NOW from the caller, no colour,
the C locale and UTC, so that outputs compare byte for byte on any machine."""
import os


def environment():
    env = dict(os.environ)
    env.pop("MEMKIT_NOW", None)
    env.update({"NO_COLOR": "1", "LC_ALL": "C", "LANG": "C", "TZ": "UTC"})
    return env
