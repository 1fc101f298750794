#!/usr/bin/env sh
# A self-signed certificate for trying the compose file on localhost (browsers will warn).
# For a real host use a certificate from your CA (e.g. Let's Encrypt) in the same two files.
set -eu
dir="$(dirname "$0")/tls"
mkdir -p "$dir"
openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=${1:-localhost}" \
  -addext "subjectAltName=DNS:${1:-localhost}" \
  -keyout "$dir/privkey.pem" -out "$dir/fullchain.pem"
chmod 600 "$dir/privkey.pem"
echo "wrote $dir/fullchain.pem and $dir/privkey.pem"
