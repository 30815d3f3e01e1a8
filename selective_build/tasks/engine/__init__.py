"""The doit engine parts, behind doit's extension points: the task loader and the build
command (loader.py, commands.py), the reporter, the file checker with its digest cache, the
up-to-date stamp and its recheck, depfile headers as an `uptodate` check, the build lock,
the stop signals, interrupt-safe subprocess actions and the database."""
