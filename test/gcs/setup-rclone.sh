#!/usr/bin/env bash
# Installs Debian's rclone, a second GCS client the tests check the test server
# against. Idempotent: does nothing when rclone is already on the PATH, and runs
# `apt-get update` only when the package is not known yet. Exits 3 (and says
# why) when apt is not available, so the tests can skip.
set -euo pipefail
if command -v rclone >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "apt-get is not available, cannot install rclone" >&2
  exit 3
fi
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "not root and no sudo, cannot install rclone" >&2
    exit 3
  fi
  sudo_cmd=(sudo -n)
fi
if ! apt-cache show rclone >/dev/null 2>&1; then
  "${sudo_cmd[@]}" apt-get update -qq
fi
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq rclone >/dev/null
command -v rclone >/dev/null
