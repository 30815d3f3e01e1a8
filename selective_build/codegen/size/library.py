"""What a library adds to an app: the difference of two attributions of a minimal app,
linked with and without the library (Note [Library-only size], tasks/size.py)."""

from __future__ import annotations

from dataclasses import replace

from selective_build.codegen.size.attribution import Attribution


def added(with_library: Attribution, without: Attribution) -> Attribution:
    """Per bucket, the bytes the library added. The buckets of the app alone (startup code,
    ELF overhead) keep only their growth, so the buckets still sum to the difference of the
    two files; a bucket that did not change is left out."""
    before = {bucket.name: bucket for bucket in without.buckets}
    buckets = []
    for bucket in with_library.buckets:
        old = before.pop(bucket.name, None)
        if old is not None:
            bucket = replace(
                bucket,
                bytes=bucket.bytes - old.bytes,
                code=bucket.code - old.code,
                bss=bucket.bss - old.bss,
            )
        if bucket.bytes or bucket.bss:
            buckets.append(bucket)
    # A bucket only the app without the library has (rare) shrank to nothing.
    buckets += [replace(b, bytes=-b.bytes, code=-b.code, bss=-b.bss) for b in before.values()]
    buckets.sort(key=lambda b: (-b.bytes, b.name))
    return Attribution(with_library.file - without.file, tuple(buckets))
