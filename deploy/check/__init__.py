"""`make deploy-check`: deploy/ built and run for real, with podman, from Debian packages.

`python -m deploy.check` builds the base images (`images.py`) and the server image from
deploy/Dockerfile, then runs the compose stack of deploy/compose.yaml inside a network
namespace of its own and plays through nginx (`stack.py`); podman runs with a private
configuration and image store (`podman.py`). docs/deploy.md says what it checks and what it
measured.
"""
