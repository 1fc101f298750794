#!/bin/sh
# The part of the nginx image's entrypoint that deploy/compose.yaml relies on: every
# /etc/nginx/templates/NAME.template becomes /etc/nginx/conf.d/NAME with only the environment
# variables whose names match NGINX_ENVSUBST_FILTER replaced (nginx's own $variables stay).
set -eu
filter="${NGINX_ENVSUBST_FILTER:-}"
names=$(env | cut -d= -f1 | grep -E -- "$filter" || true)
defined=$(printf '${%s} ' $names)
for template in /etc/nginx/templates/*.template; do
    [ -e "$template" ] || continue
    name=$(basename "$template" .template)
    envsubst "$defined" < "$template" > "/etc/nginx/conf.d/$name"
done
exec "$@"
