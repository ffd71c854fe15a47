#!/bin/sh
# Builds the platform's images on the engine DOCKER_HOST names, from local layers only (no registry is
# reachable from the build machines; see infra/images/):
#   DOCKER_HOST=unix:///tmp/exam-docker-test/docker.sock scripts/build-images.sh [component ...]
# Components: exam-service results-service llm-gateway workspace-orchestrator creator-web taker-web (all by
# default). Tags exam/<component>:${IMAGE_TAG:-latest}.
#
# 1. exam/node-base: a root filesystem with only Node 24 and its libraries (infra/images/make-node-rootfs.sh),
#    imported once (NODE_BASE_REBUILD=1 makes it again, e.g. after a Node upgrade).
# 2. Per component, a context staged here: the workspace projects it imports (tracked files, tests left
#    out) and their production dependencies, installed by pnpm offline from the lockfile and this machine's
#    store; for a web app also its Vite bundle. The Dockerfile only copies that onto the base, so the image
#    holds no dev dependency, compiler or package manager.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
images="$root/infra/images"
export DOCKER_BUILDKIT=0
tag="${IMAGE_TAG:-latest}"
components="${*:-exam-service results-service llm-gateway workspace-orchestrator creator-web taker-web}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ "${NODE_BASE_REBUILD:-}" = 1 ] || ! docker image inspect exam/node-base >/dev/null 2>&1; then
  sh "$images/make-node-rootfs.sh" "$work/node-base.tar"
  docker import --change 'ENV PATH=/usr/local/bin' "$work/node-base.tar" exam/node-base
  rm -f "$work/node-base.tar"
fi

# Copies the tracked files of the projects $1 depends on (itself included) and installs their production
# dependencies into $2.
stage() {
  package="$1" app="$2"
  mkdir -p "$app"
  (cd "$root" && cp package.json pnpm-workspace.yaml pnpm-lock.yaml "$app/" && { [ ! -f .npmrc ] || cp .npmrc "$app/"; })
  paths="$(cd "$root" && pnpm list --filter "$package..." --only-projects --depth -1 --json |
    node -e 'const r=require("path").resolve(process.argv[1]); for (const p of JSON.parse(require("fs").readFileSync(0,"utf8"))) console.log(require("path").relative(r,p.path))' "$root")"
  # shellcheck disable=SC2086
  (cd "$root" && git ls-files -- $paths | grep -Ev '\.test\.tsx?$|(^|/)src/testing/' | tar -cf - -T -) | tar -xf - -C "$app"
  (cd "$app" && pnpm install --prod --offline --frozen-lockfile --ignore-scripts --config.confirmModulesPurge=false \
    --filter "$package..." >&2)
}

for component in $components; do
  ctx="$work/$component"
  mkdir -p "$ctx"
  case "$component" in
    exam-service | results-service | llm-gateway | workspace-orchestrator)
      stage "@exam/$component" "$ctx/app"
      # The orchestrator reads the workspace catalogue from the repository's infra/ (WORKSPACE_CATALOGUE).
      if [ "$component" = workspace-orchestrator ]; then
        mkdir -p "$ctx/app/infra/workspaces"
        cp "$root/infra/workspaces/catalogue.json" "$ctx/app/infra/workspaces/"
      fi
      cp "$images/Dockerfile.service" "$ctx/Dockerfile"
      build_args="--build-arg SERVICE=$component"
      ;;
    creator-web | taker-web)
      (cd "$root" && pnpm --filter "@exam/$component" build >&2)
      stage "@exam/web-server" "$ctx/app"
      mkdir -p "$ctx/app/apps/$component"
      cp -R "$root/apps/$component/dist" "$ctx/app/apps/$component/dist"
      sed "s/@APP@/$component/g" "$images/Dockerfile.web" >"$ctx/Dockerfile"
      build_args=""
      ;;
    *)
      echo "no such component: $component" >&2
      exit 2
      ;;
  esac
  echo "building exam/$component:$tag" >&2
  # shellcheck disable=SC2086
  docker build $build_args -t "exam/$component:$tag" "$ctx"
  docker image ls "exam/$component:$tag" --format '{{.Repository}}:{{.Tag}} {{.Size}}'
done
