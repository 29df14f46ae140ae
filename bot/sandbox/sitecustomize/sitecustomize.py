"""Redirect a `python -m bot` subprocess to the loopback Discord named by QT_LOOPBACK_URL.

Put this folder on PYTHONPATH; Python imports `sitecustomize` at start-up, before the
project is necessarily on sys.path, so `redirect.py` is loaded from its file next door.
It must never break an interpreter where discord.py is not importable.
"""

import os


def _redirect(url: str) -> None:
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "redirect.py")
    spec = importlib.util.spec_from_file_location("_qt_loopback_redirect", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        module.patch_discord(url)
    except ImportError:  # discord.py (or yarl) not installed in this interpreter
        pass


if os.environ.get("QT_LOOPBACK_URL"):
    _redirect(os.environ["QT_LOOPBACK_URL"])
