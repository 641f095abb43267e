"""manifest.json in the carried folder: what prepare carried and measured, for run.

Written by prepare, read by run (--dry, --rehearse); paths are relative to the folder.
"""

import json

from common import CARRY, die

FORMAT = 2  # 1 was manifest.sh, sourced by the bash script


def write(data):
    data = dict(data, format=FORMAT)
    path = CARRY / "manifest.json"
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return path


def read():
    path = CARRY / "manifest.json"
    if not path.is_file():
        die(f"no {path}: run `ci/gpu-check prepare` on the build machine, and carry {CARRY}")
    try:
        data = json.loads(path.read_text())
    except ValueError as e:
        die(f"{path} is not valid JSON ({e}): run `ci/gpu-check prepare` again")
    if data.get("format") != FORMAT:
        die(
            f"{path} has format {data.get('format')}, this ci/gpu-check reads {FORMAT}: "
            "run `ci/gpu-check prepare` again"
        )
    return data
