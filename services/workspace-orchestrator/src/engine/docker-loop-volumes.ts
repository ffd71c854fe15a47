import type Docker from 'dockerode';
import { isNotFound } from './docker-client.ts';
import { LABELS } from './engine.ts';

/**
 * Workspace volumes of a fixed size on any Docker host (WORKSPACE_VOLUME_QUOTA=loop): each volume is an ext2
 * filesystem in a sparse image file of WORKSPACE_VOLUME_SIZE in WORKSPACE_VOLUME_DIR on the engine's host, attached
 * to a loop device and handed to the `local` driver as `type=ext2,device=/dev/loopN` (the driver mounts it with
 * mount(2) on first use, like any block device: docs.docker.com/engine/storage/volumes/#block-storage-devices).
 * A full filesystem fails the candidate's writes with ENOSPC, and the host's disk loses at most the image's size.
 *
 * Why this design: the `local` driver's own `size` needs XFS with project quotas, which many kernels (this
 * machine's among them) and most root disks lack; a loop filesystem needs only the loop driver. The orchestrator
 * may run away from the engine's host, so every host step (sparse file, mke2fs, losetup) runs in a short-lived
 * helper container on that engine, with CAP_SYS_ADMIN and the loop devices only (not --privileged, which a
 * runtime without every capability refuses). The image file, not the Docker volume, is the attempt's data: loop
 * devices do not survive a reboot and their numbers change, so every start and every read re-attaches the file
 * and, when the device differs, re-creates the volume's record (its data untouched) before anything mounts it —
 * a stale `device=` could otherwise mount another attempt's filesystem.
 *
 * ext2 because busybox's mke2fs writes nothing newer; the kernel's ext4 driver mounts it. It has no journal: after a
 * host crash the attempt's files are as fsck leaves them, as on any unjournalled disk.
 */
export type LoopVolumeOptions = {
  instance: string;
  bytes: number;
  /** A folder on the engine's host for the image files (WORKSPACE_VOLUME_DIR). */
  hostDir: string;
  /** An image with busybox (or util-linux and e2fsprogs) for the helper container (WORKSPACE_VOLUME_HELPER_IMAGE). */
  helperImage: string;
};

/** The loop block major (Documentation/admin-guide/devices.txt: 7 block, loop devices) and loop-control (10:237). */
const LOOP_DEVICE_RULES = ['b 7:* rwm', 'c 10:237 rwm'];

/**
 * The helper's script: `$1` the volume name, `$2` its size in bytes. It creates the image once (sparse, then ext2
 * with no root reserve, the root folder left empty so Docker copies the image folder's owner into it on first
 * mount), attaches it unless a loop device already holds it (the kernel's backing file name, which ends in the
 * volume's name), and prints the device.
 */
const HELD = String.raw`# The loop devices holding this volume's image: the kernel's backing file name ends in it (busybox's losetup -a
# shows only the name given at attach time, cut at 64 bytes). Volume names are unique on an engine.
held() {
  for s in /sys/block/loop*/loop/backing_file; do
    [ -e "$s" ] || continue
    case "$(cat "$s")" in */"$1.img") echo "/dev/$(echo "$s" | cut -d/ -f4)" ;; esac
  done
}
`;

const ATTACH = String.raw`set -eu
f="/volumes/$1.img"
${HELD}# Two helpers may race for the same free device: the loser's LOOP_SET_FD fails and it asks again.
attach() {
  i=0
  while :; do
    d=$(losetup -f)
    if losetup "$d" "$2" 2>/dev/null; then eval "$1=$d"; return 0; fi
    i=$((i+1)); [ "$i" -lt 20 ] || { echo "no free loop device" >&2; exit 3; }
  done
}
if [ ! -e "$f" ]; then
  truncate -s "$2" "$f.new"
  mke2fs -F -q -m 0 "$f.new" >/dev/null 2>&1 || mke2fs -F -m 0 "$f.new" >/dev/null
  attach d "$f.new"
  mkdir -p /tmp/m; mount -t ext2 "$d" /tmp/m; rmdir /tmp/m/lost+found; umount /tmp/m; losetup -d "$d"
  mv "$f.new" "$f"
fi
dev=$(held "$1" | head -n1)
[ -n "$dev" ] || attach dev "$f"
echo "device=$dev"`;

/** Detaches every loop device holding the image and deletes it. */
const DETACH = String.raw`set -eu
f="/volumes/$1.img"
${HELD}for d in $(held "$1"); do losetup -d "$d"; done
rm -f "$f"`;

/** Volume names are the orchestrator's own (exam-…); the check keeps a shell argument a plain file name. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export function createLoopVolumes(docker: Docker, opts: LoopVolumeOptions) {
  async function helper(script: string, volume: string): Promise<string> {
    if (!SAFE_NAME.test(volume)) throw new Error(`${volume} is not a volume name`);
    const container = await docker.createContainer({
      Image: opts.helperImage,
      Entrypoint: ['sh', '-c', script, 'volume-helper'],
      Cmd: [volume, String(opts.bytes)],
      User: '0:0',
      Tty: true,
      Labels: { [LABELS.managed]: 'true', [LABELS.instance]: opts.instance, [LABELS.sessionId]: `volume-${volume}` },
      HostConfig: {
        NetworkMode: 'none',
        CapDrop: ['ALL'],
        CapAdd: ['SYS_ADMIN', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER'],
        DeviceCgroupRules: LOOP_DEVICE_RULES,
        // Docker's AppArmor profile (docker-default, on Ubuntu and Debian hosts with AppArmor) denies mount(2) even
        // with CAP_SYS_ADMIN, and the first preparation of an image mounts it once; ignored where AppArmor is off.
        SecurityOpt: ['apparmor=unconfined', 'no-new-privileges'],
        Binds: [`${opts.hostDir}:/volumes`, '/dev:/dev'],
      },
    });
    try {
      await container.start();
      const { StatusCode } = (await container.wait()) as { StatusCode: number };
      const output = ((await container.logs({ stdout: true, stderr: true })) as Buffer).toString('utf8').trim();
      if (StatusCode !== 0)
        throw new Error(`the volume helper for ${volume} failed (exit ${StatusCode}): ${output.slice(-500)}`);
      return output;
    } finally {
      await container.remove({ force: true }).catch(() => undefined);
    }
  }

  return {
    /**
     * Makes sure the volume exists on its image file's current loop device; idempotent (an attempt's later
     * session reuses its files). Called before every mount: a workspace start and a read of a stopped volume.
     */
    async ensure(name: string, labels: Record<string, string>) {
      const device = /device=(\/dev\/loop[0-9]+)/.exec(await helper(ATTACH, name))?.[1];
      if (!device) throw new Error(`the volume helper for ${name} printed no loop device`);
      try {
        const existing = (await docker.getVolume(name).inspect()) as { Options?: Record<string, string> | null };
        if (existing.Options?.device === device) return;
        // A record from before a reboot points at a device that now holds nothing or another file: re-create it.
        await docker.getVolume(name).remove();
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      await docker.createVolume({
        Name: name,
        Driver: 'local',
        DriverOpts: { type: 'ext2', device },
        Labels: { ...labels, [LABELS.managed]: 'true', [LABELS.instance]: opts.instance },
      });
    },

    /** Detaches and deletes the image file (after Docker removed the volume's record). */
    async release(name: string) {
      await helper(DETACH, name);
    },
  };
}

export type LoopVolumes = ReturnType<typeof createLoopVolumes>;
