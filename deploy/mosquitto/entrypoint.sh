#!/bin/sh
# Start Mosquitto with the accounts of deploy/mosquitto/acl: the password file is written from
# the environment (MQTT_SERVER_PASSWORD, and MQTT_BOTS_PASSWORD if remote bot workers are used),
# so the passwords live in deploy/.env like the database's, and never in an image or the repo.
set -eu
: "${MQTT_SERVER_PASSWORD:?set MQTT_SERVER_PASSWORD}"
passwd=/mosquitto/data/passwd
umask 077
mosquitto_passwd -c -b "$passwd" server "$MQTT_SERVER_PASSWORD"
if [ -n "${MQTT_BOTS_PASSWORD:-}" ]; then
    mosquitto_passwd -b "$passwd" bots "$MQTT_BOTS_PASSWORD"
fi
# Mosquitto drops root for its own user before it reads the file.
if id mosquitto >/dev/null 2>&1; then
    chown mosquitto "$passwd"
fi
exec mosquitto -c /mosquitto/config/mosquitto.conf
