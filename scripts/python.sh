# Sourced: sets $python to Debian's Python, the one apt's python3-* packages (pytest, dbus, gi,
# pyatspi) install into; a python3 first on PATH (pyenv, a virtual environment) has none of them.
# XHUD_PYTHON overrides it.
python=${XHUD_PYTHON:-}
if [ -z "$python" ]; then
  if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; else python=python3; fi
fi
