#!/bin/sh
# Regenerates examples/allergy/docs/bakery-handbook.pdf (committed, 4 pages of A5) from
# bakery-handbook.html beside this script, with Chromium's print to PDF. Kept out of
# examples/allergy so that `atlas ingest examples/allergy` does not index the HTML too.
# Usage: sh examples/sources/generate-bakery-handbook.sh   (needs chromium: apt-get install chromium)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
  --print-to-pdf="$here/../allergy/docs/bakery-handbook.pdf" "file://$here/bakery-handbook.html"
