"""Reading and writing recorded hands: JSON Lines, CSV, Parquet (docs/formats.md).

The package's face: the public names of the files layer, each from its
module (:mod:`~ofc_fast.io.readers`, :mod:`~ofc_fast.io.writer`,
:mod:`~ofc_fast.io.pipeline`, the formats' own modules).

Readers stream: they yield validated :class:`~ofc_fast.records.Chunk`\\ s of
whole hands, so a file larger than memory is scored chunk by chunk::

    import ofc_fast.io as fio
    with fio.open_writer("scored.parquet") as w:
        for chunk in fio.read_chunks("hands.jsonl"):
            w.write(chunk.score())

or in one call: ``fio.score_file("hands.jsonl", "scored.parquet")``.  A frame
already in memory (pandas, pyarrow or polars) is scored with
:func:`score_frame`, which returns the same kind of frame with the results.

Paths may be local, ``-`` (stdin/stdout), end in ``.gz`` (JSON Lines, CSV),
or any fsspec URL (``s3://...``) when fsspec is installed.
"""
from __future__ import annotations

from typing import Any

from ofc_fast.deprecation import warn_renamed
from ofc_fast.errors import FileFormatError, RecordError, SameFileError
from ofc_fast.io.arrow import chunk_from_arrow, chunk_table
from ofc_fast.io.formats import FORMATS, REGISTRY, detect_format
from ofc_fast.io.frames import score_frame
from ofc_fast.io.inputs import Source as Source
from ofc_fast.io.pipeline import CLOSED_PIPE as CLOSED_PIPE
from ofc_fast.io.pipeline import ScoreRun, score_file
from ofc_fast.io.readers import MAX_CHUNK as MAX_CHUNK
from ofc_fast.io.readers import read_chunks, read_frame, read_hands
from ofc_fast.io.writer import ChunkWriter as ChunkWriter
from ofc_fast.io.writer import Writer, open_writer, write_hands
from ofc_fast.outputs import OutputError, check_distinct, open_output


def __getattr__(name: str) -> Any:
    """``HandError``: the deprecated name (0.1) of :class:`ofc_fast.errors.RecordError`."""
    if name == "HandError":
        warn_renamed("ofc_fast.io.HandError", "ofc_fast.errors.RecordError", since="0.3")
        return RecordError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FORMATS", "REGISTRY", "detect_format", "read_chunks", "read_hands", "read_frame",
           "open_writer",
           "write_hands", "score_file", "score_frame", "ScoreRun", "Writer", "chunk_from_arrow",
           "chunk_table",
           "RecordError", "FileFormatError", "SameFileError", "OutputError", "open_output",
           "check_distinct"]
