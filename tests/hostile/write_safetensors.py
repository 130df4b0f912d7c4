#!/usr/bin/env python3
"""Writes a safetensors file from a header given as JSON text (hostile-case setup).

    write_safetensors.py FILE HEADER_JSON DATA_BYTES

The header is written as given (names may hold escape sequences or NUL, as \\u001b or \\u0000 in
the JSON text), followed by DATA_BYTES zero bytes of tensor data.
"""
import json
import struct
import sys

path, header, data_bytes = sys.argv[1], sys.argv[2], int(sys.argv[3])
encoded = json.dumps(json.loads(header)).encode()
with open(path, "wb") as f:
    f.write(struct.pack("<Q", len(encoded)) + encoded + bytes(data_bytes))
