"""The writers' formatters: CSV rows, JSON Lines records and JSON Lines
source lines with results, in one pass of C (see ofc_fast/_write.pyx)."""
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from typing_extensions import Buffer, disjoint_base

_Texts = tuple[NDArray[np.int64], Any, NDArray[np.uint8]]

KIND_TEXT: int
KIND_LITERAL: int
KIND_NULL: int
COL_TEXT: int
COL_INT: int
COL_SEAT: int
COL_PLAYERS: int
COL_CARDS: int
COL_DISCARDS: int
SLOTS: tuple[str, ...]

@disjoint_base
class WriteBuffer(Buffer):
    def __init__(self) -> None: ...
    def __len__(self) -> int: ...

def _utf8_lengths(s: bytes) -> list[int]: ...
def csv_texts(values: Sequence[object]) -> _Texts: ...
def json_texts(values: Sequence[object]) -> _Texts: ...
def int_texts(values: NDArray[np.integer[Any]],
              valid: NDArray[np.uint8] | NDArray[np.bool_] | None = ...) -> _Texts: ...
def layout_spec(variants: list[Any]) -> NDArray[np.int64]: ...
def csv_rows(columns: list[tuple[Any, ...]], hand_start: NDArray[np.int64],
             hand_var: NDArray[np.int64] | None = ..., cards: NDArray[np.uint8] | None = ...,
             spec: NDArray[np.int64] | None = ...,
             discards: tuple[NDArray[Any], NDArray[Any]] | None = ...,
             head: bytes = ..., out: WriteBuffer | None = ...) -> bytes | WriteBuffer: ...
def jsonl_records(ids: _Texts, id_ix: NDArray[np.int64] | None, names: _Texts,
                  name_ix: NDArray[np.int64] | None, vnames: _Texts, vopts: _Texts,
                  hand_start: NDArray[np.int64], hand_var: NDArray[np.int64] | None,
                  cards: NDArray[np.uint8], spec: NDArray[np.int64],
                  discards: tuple[NDArray[Any], NDArray[Any]] | None,
                  fl: NDArray[Any], recorded: NDArray[Any], has: NDArray[Any],
                  results: tuple[Any, ...] | None = ..., results_only: bool = ...,
                  out: WriteBuffer | None = ...) -> bytes | WriteBuffer: ...
def jsonl_lines(blocks: list[bytes], where: NDArray[np.int64], hand_start: NDArray[np.int64],
                hand_var: NDArray[np.int64] | None, vnames: _Texts, vopts: _Texts,
                recorded: NDArray[Any], has: NDArray[Any],
                results: tuple[Any, ...] | None = ...,
                out: WriteBuffer | None = ..., splice: NDArray[np.int32] | None = ...
                ) -> tuple[bytes | WriteBuffer, NDArray[np.int64], NDArray[np.int64]]: ...
