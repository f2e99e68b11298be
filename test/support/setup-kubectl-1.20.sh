#!/bin/sh
# Puts Debian's kubectl 1.20 (package kubernetes-client) in .cache/kubectl-1.20/
# without installing it: it conflicts with the image's kubectl under apt-get
# install, so the .deb is downloaded and unpacked. Idempotent; prints the path.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cache="$root/.cache/kubectl-1.20"
binary="$cache/usr/bin/kubectl"
if [ -x "$binary" ]; then
  echo "$binary"
  exit 0
fi
mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# apt-get update only when the package is unknown to apt (a fresh image).
if ! apt-cache show kubernetes-client >/dev/null 2>&1; then
  apt-get update -qq >&2
fi
apt-get download -qq kubernetes-client >&2
dpkg-deb -x kubernetes-client_*.deb "$cache"
echo "$binary"
