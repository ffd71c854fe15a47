#!/bin/sh
# Builds the platform's images on the engine DOCKER_HOST names, from local layers only (no registry is
# reachable from the build machines; see infra/images/):
#   DOCKER_HOST=unix:///tmp/exam-docker-test/docker.sock scripts/build-images.sh [component ...]
# Components: exam-service results-service llm-gateway workspace-orchestrator creator-web taker-web (all by
# default). Tags exam/<component>:${IMAGE_TAG:-latest}.
#
# 1. exam/node-base: a root filesystem with only Node 24 and its libraries (infra/images/make-node-rootfs.sh),
#    imported once (NODE_BASE_REBUILD=1 makes it again, e.g. after a Node upgrade).
# 2. exam/platform-app: node-base plus one layer staged here for every component at once: the workspace projects
#    the four services and the web server import (tracked files, tests left out) and their production
#    dependencies, installed by one pnpm run, offline, from the lockfile and this machine's store. The layer is
#    shared: six images that each copied their own would stage, send and commit nearly the same 120 MB six times.
# 3. Per component, a thin image on it: a service's working directory and entrypoint (Dockerfile.service), a web
#    app's Vite bundle and the web server's entrypoint (Dockerfile.web). The bundles come from
#    `turbo run build`, so a checkout whose apps were already built (pnpm start, the journeys) reuses them when
#    nothing they are built from changed. No image holds a dev dependency, compiler or package manager.
# Each step prints its seconds ([build-images] … s).
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
images="$root/infra/images"
export DOCKER_BUILDKIT=0
tag="${IMAGE_TAG:-latest}"
components="${*:-exam-service results-service llm-gateway workspace-orchestrator creator-web taker-web}"
services="exam-service results-service llm-gateway workspace-orchestrator"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
clock=$(date +%s)
took() {
  now=$(date +%s)
  echo "[build-images] $1: $((now - clock)) s" >&2
  clock=$now
}

for component in $components; do
  case " $services creator-web taker-web " in *" $component "*) ;; *)
    echo "no such component: $component" >&2
    exit 2
    ;;
  esac
done

if [ "${NODE_BASE_REBUILD:-}" = 1 ] || ! docker image inspect exam/node-base >/dev/null 2>&1; then
  sh "$images/make-node-rootfs.sh" "$work/node-base.tar"
  docker import --change 'ENV PATH=/usr/local/bin' "$work/node-base.tar" exam/node-base >/dev/null
  rm -f "$work/node-base.tar"
  took "exam/node-base imported"
fi

# The web apps' bundles first: turbo builds both side by side, or restores them from its cache.
webs=""
for component in $components; do
  case "$component" in creator-web | taker-web) webs="$webs --filter=@exam/$component" ;; esac
done
if [ -n "$webs" ]; then
  # shellcheck disable=SC2086
  (cd "$root" && pnpm exec turbo run build $webs --output-logs=errors-only >&2)
  took "web bundles (turbo run build)"
fi

# The shared layer: every service and the web server, whichever components were asked for, so that images
# built in separate runs still share it.
app="$work/platform/app"
mkdir -p "$app"
filters=""
for project in $services web-server; do filters="$filters --filter @exam/$project..."; done
(cd "$root" && cp package.json pnpm-workspace.yaml pnpm-lock.yaml "$app/" && { [ ! -f .npmrc ] || cp .npmrc "$app/"; })
# shellcheck disable=SC2086
paths="$(cd "$root" && pnpm list $filters --only-projects --depth -1 --json |
  node -e 'const r=require("path").resolve(process.argv[1]); for (const p of JSON.parse(require("fs").readFileSync(0,"utf8"))) console.log(require("path").relative(r,p.path))' "$root")"
# shellcheck disable=SC2086
(cd "$root" && git ls-files -- $paths | grep -Ev '\.test\.tsx?$|(^|/)src/testing/' | tar -cf - -T -) | tar -xf - -C "$app"
# shellcheck disable=SC2086
(cd "$app" && pnpm install --prod --offline --frozen-lockfile --ignore-scripts --config.confirmModulesPurge=false \
  $filters --reporter=silent >&2)
# The orchestrator reads the workspace catalogue from the repository's infra/ (WORKSPACE_CATALOGUE).
mkdir -p "$app/infra/workspaces"
cp "$root/infra/workspaces/catalogue.json" "$app/infra/workspaces/"
took "staged the shared layer ($(du -sh "$app" | cut -f1))"
cp "$images/Dockerfile.platform-app" "$work/platform/Dockerfile"
docker build -q -t "exam/platform-app:$tag" "$work/platform" >/dev/null
rm -rf "$work/platform"
took "exam/platform-app:$tag"

for component in $components; do
  ctx="$work/$component"
  mkdir -p "$ctx"
  case "$component" in
    creator-web | taker-web)
      cp -R "$root/apps/$component/dist" "$ctx/dist"
      sed "s/@APP@/$component/g" "$images/Dockerfile.web" >"$ctx/Dockerfile"
      build_args=""
      ;;
    *)
      cp "$images/Dockerfile.service" "$ctx/Dockerfile"
      build_args="--build-arg SERVICE=$component"
      ;;
  esac
  # shellcheck disable=SC2086
  docker build -q $build_args --build-arg "BASE=exam/platform-app:$tag" -t "exam/$component:$tag" "$ctx" >/dev/null
  took "exam/$component:$tag $(docker image ls "exam/$component:$tag" --format '{{.Size}}')"
done
