#!/usr/bin/env bash
# Scale benchmark: thousands of light engines at once, on the local runner and a local cluster (TLS on).
# Usage: bench/scale.sh [--local 10,100,250] [--cluster 10,100,1000] [--plies 120] [--think 100-500]
# What it measures and writes (bench/results/scale-latest.md): bench/scale.py's own help.
set -euo pipefail
exec python3 "$(dirname "${BASH_SOURCE[0]}")/scale.py" "$@"
