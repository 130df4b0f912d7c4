#!/usr/bin/env python3
"""Overwrites one element of a tensor in a safetensors file, in place (hostile-case setup).

    poke_tensor.py FILE TENSOR ROW COL HEXBYTES

ROW, COL index a 2-D tensor (COL alone for a 1-D one: give ROW 0); HEXBYTES is the element's
little-endian bytes: 0000c07f is an F32 NaN, 0000807f F32 +inf, 007e an F16 NaN, 807f a BF16 +inf.
"""
import json
import struct
import sys

path, name, row, col, value = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), bytes.fromhex(sys.argv[5])
with open(path, "r+b") as f:
    header_size = struct.unpack("<Q", f.read(8))[0]
    tensor = json.loads(f.read(header_size))[name]
    width = {"F32": 4, "F16": 2, "BF16": 2}[tensor["dtype"]]
    assert len(value) == width, f"{tensor['dtype']} elements are {width} bytes"
    index = row * (tensor["shape"][1] if len(tensor["shape"]) == 2 else 1) + col
    f.seek(8 + header_size + tensor["data_offsets"][0] + index * width)
    f.write(value)
