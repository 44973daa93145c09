#!/usr/bin/env python3
"""bench.py: run shmpi's microbenchmarks and print one table.

    bench.py run     [options]   shmpi alone                     (make bench)
    bench.py compare [options]   shmpi, Open MPI and MPICH       (make bench-compare)
    bench.py peers               install Open MPI and MPICH from Debian's packages
                                 if missing (as root; otherwise print the command, exit 1)

    options: --build DIR (default build)  --plan quick|default|compare|full
             --reps N  --impls shmpi,openmpi,openmpi-oscsm,mpich
             --only PROG,..  (programs, or the kinds launch and shm)

The benchmark programs (tools/bench/*.c) are built by tools/bench/bench.mk into
BUILD/bench/{shmpi,openmpi,mpich}/.  A *plan* lists what to run: programs with
their options and rank counts, plus two measurements taken from outside the
jobs: the launch time of a whole `init_finalize` job, and the shared memory a
job holds (the sum over the launcher and every rank of the shared mappings in
/proc/PID/smaps: "mapped" counts each shared object once at its largest
mapping, "resident" sums the proportional set size, i.e. the pages touched).

compare runs every configuration A B A B: for each run of the plan, for each
repetition, each implementation in turn; the table shows the median over the
repetitions of each point's in-program median.  Open MPI runs with
`--mca btl self,vader`, and a second time with `--mca osc sm` forced; two-rank
jobs are bound one rank per core (`--bind-to core`, MPICH `-bind-to core`),
oversubscribed jobs are not bound.  shmrun has no binding option: its ranks
run where the kernel puts them.

A point that crashes or hangs is shown as `crash` or `timeout`; the driver
resumes the program after it (`--skip`), so one bad point does not hide the
others.  A configuration the library refuses (a window flavour) is shown as
`unsupp`; one the plan does not run for a library (MPICH far oversubscribed) as
`skipped`, with the reason below the table.  Results also go to
BUILD/bench/results.json and results.csv.

Python 3 standard library only.
"""

import argparse
import csv
import json
import math
import os
import platform
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

FIELDS = ['idx', 'bench', 'op', 'type', 'sync', 'flavor', 'bytes', 'ranks', 'unit',
          'median', 'best', 'iters', 'status', 'note']
KEY = ('bench', 'op', 'type', 'sync', 'flavor', 'bytes', 'ranks', 'unit')
ALL_SYNCS = 'lock,lock_all,flush,flush_local,fence,pscw'
PEER_PKGS = ['openmpi-bin', 'libopenmpi-dev', 'mpich', 'libmpich-dev']
HIGHER_IS_BETTER = {'MB/s', 'Mmsg/s'}
GROUPS = {'acc_one': 'acc_scale', 'acc_ring': 'acc_scale'}  # families the table shows as one

IDLE_TIMEOUT_S = 90     # a job that prints nothing for this long is killed
HOLD_TIMEOUT_S = 180    # a --hold job must be ready within this
KILL_GRACE_S = 3        # SIGTERM, then SIGKILL after this
MAX_ATTEMPTS = 12       # restarts of one program after crashes


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ----------------------------------------------------------------- plans

def mpi(prog, ranks, *args, only=None, why=None):
    """why: the note shown for the implementations that `only` leaves out"""
    return {'kind': 'mpi', 'prog': prog, 'ranks': ranks, 'args': list(args), 'only': only,
            'why': why}


def launch(ranks, reps, only=None):
    return {'kind': 'launch', 'prog': 'init_finalize', 'ranks': ranks, 'reps': reps,
            'only': only}


def shm(ranks, only=None):
    return {'kind': 'shm', 'prog': 'init_finalize', 'ranks': ranks, 'only': only}


def scale_runs(lock_ranks, acc_ranks):
    """bench_scale: the lock+put+unlock rings and lock_all (8 B), accumulate+flush of 1 and
    8 doubles"""
    cpus = os.cpu_count() or 1
    runs = []
    for ops, sizes, counts in (('lock_excl,lock_shared,lock_all', '8', lock_ranks),
                               ('acc_one,acc_ring', '8,64', acc_ranks)):
        for n in counts:
            if n > 8 * cpus:
                # MPICH oversubscribed: at 64 ranks on 2 CPUs a barrier took 0.75 s and
                # an operation 20-140 ms, about 2 minutes a job
                runs.append(mpi('bench_scale', n, '--ops=' + ops, '--sizes=' + sizes,
                                only={'shmpi', 'openmpi', 'openmpi-oscsm'},
                                why='not run above 8 ranks per CPU (minutes per job)'))
            else:
                runs.append(mpi('bench_scale', n, '--ops=' + ops, '--sizes=' + sizes))
    return runs


def plan_runs(plan):
    """(options given to every program, list of runs) of a plan"""
    if plan == 'quick':
        timing = ['--min-time=10', '--samples=3']
        runs = [
            mpi('bench_rma_lat', 2, '--ops=put,get', '--syncs=' + ALL_SYNCS, '--sizes=8,64K'),
            mpi('bench_rma_lat', 2, '--ops=put', '--syncs=flush,lock', '--sizes=8',
                '--flavors=create,create_malloc,dynamic,dynamic_malloc'),
            # malloc memory beside MPI_Win_allocate in one job (page-aligned:
            # shmpi makes its pages shared while the window lives)
            mpi('bench_rma_lat', 2, '--ops=put,get', '--syncs=flush', '--sizes=64K,1M',
                '--flavors=allocate,create_malloc'),
            mpi('bench_atomic', 2, '--ops=acc,get_acc,fop,cas', '--types=double',
                '--ftypes=int64', '--syncs=flush,lock', '--sizes=8'),
            mpi('bench_atomic', 2, '--ops=acc', '--types=double', '--syncs=flush', '--sizes=1M'),
            mpi('bench_rma_bw', 2, '--ops=put,get', '--dirs=uni,bi', '--syncs=flush,fence',
                '--sizes=1M'),
            mpi('bench_barrier', 2),
            mpi('bench_barrier', 8, '--ops=barrier,allreduce', '--sizes=1M'),
            mpi('bench_msgrate', 8, '--sizes=8'),
            mpi('bench_passive', 2, '--sizes=8'),
            mpi('bench_p2p', 2, '--sizes=8,64K,1M'),
            mpi('bench_part', 2, '--sizes=4K,1M'),
            mpi('bench_scale', 2, '--sizes=8'),
            mpi('bench_scale', 8, '--sizes=8'),
            launch(8, 3),
            shm(2), shm(8),
        ]
    elif plan == 'compare':
        timing = ['--min-time=50', '--samples=5']
        runs = [
            mpi('bench_rma_lat', 2, '--ops=put,get', '--syncs=' + ALL_SYNCS, '--sizes=8'),
            mpi('bench_rma_lat', 2, '--ops=put,get', '--syncs=flush',
                '--sizes=1,64,4K,64K,1M,4M', '--flavors=allocate,create_malloc'),
            mpi('bench_rma_lat', 2, '--ops=put', '--syncs=flush,lock', '--sizes=8',
                '--flavors=create,create_malloc,dynamic,dynamic_malloc'),
            mpi('bench_atomic', 2, '--ops=acc,get_acc,fop,cas', '--types=double',
                '--ftypes=int64', '--syncs=' + ALL_SYNCS, '--sizes=8'),
            mpi('bench_atomic', 2, '--ops=acc', '--types=char,int', '--syncs=flush', '--sizes=8'),
            # the 8-byte point is in the run above
            mpi('bench_atomic', 2, '--ops=acc', '--types=double', '--syncs=flush',
                '--sizes=16:4M'),
            mpi('bench_rma_bw', 2, '--ops=put,get', '--dirs=uni,bi', '--syncs=flush',
                '--sizes=8,64K,1M,4M'),
            mpi('bench_rma_bw', 2, '--ops=put,get', '--dirs=uni',
                '--syncs=lock,lock_all,flush_local,fence,pscw', '--sizes=1M'),
            mpi('bench_barrier', 2),
            mpi('bench_barrier', 8, '--ops=barrier,allreduce', '--sizes=1M'),
            mpi('bench_msgrate', 8, '--sizes=8'),
            mpi('bench_passive', 2, '--sizes=8'),
            mpi('bench_p2p', 2, '--sizes=8:4M'),
            mpi('bench_part', 2, '--sizes=64,4K,256K,4M'),
        ] + scale_runs((2, 8, 64), (2, 16, 64)) + [
            launch(8, 5),
            shm(2), shm(8), shm(64),
        ] + [r for n in (512, 1024) for r in (shm(n, only={'shmpi'}),
                                               launch(n, 1, only={'shmpi'}))]
    elif plan in ('default', 'full'):
        timing = ['--min-time=50', '--samples=5']
        full = plan == 'full'
        flavors = 'create,create_malloc,dynamic,dynamic_malloc'
        runs = [
            # malloc memory beside MPI_Win_allocate in one job, the whole sweep
            mpi('bench_rma_lat', 2, '--ops=put,get', '--syncs=' + ALL_SYNCS, '--sizes=1:4M',
                '--flavors=allocate,create_malloc'),
            mpi('bench_rma_lat', 2, '--ops=put,get', '--syncs=' + ALL_SYNCS,
                '--sizes=' + ('1:4M' if full else '8,64K,1M'),
                '--flavors=create,dynamic,dynamic_malloc'),
            mpi('bench_atomic', 2, '--ops=acc,get_acc', '--types=char,int,double',
                '--syncs=' + ('flush' if not full else ALL_SYNCS), '--sizes=1:4M'),
            mpi('bench_atomic', 2, '--ops=fop,cas', '--ftypes=int,int64,double',
                '--syncs=' + ALL_SYNCS),
        ]
        if not full:
            runs.append(mpi('bench_atomic', 2, '--ops=acc,get_acc', '--types=double',
                            '--syncs=lock,lock_all,flush_local,fence,pscw', '--sizes=8'))
        runs += [
            mpi('bench_atomic', 2, '--ops=acc,get_acc,fop,cas', '--types=double',
                '--ftypes=int64', '--syncs=flush', '--sizes=8', '--flavors=' + flavors),
            mpi('bench_rma_bw', 2, '--ops=put,get', '--dirs=uni,bi', '--syncs=flush',
                '--sizes=1:4M'),
            mpi('bench_rma_bw', 2, '--ops=put,get', '--dirs=uni,bi',
                '--syncs=lock,lock_all,flush_local,fence,pscw',
                '--sizes=' + ('1:4M' if full else '8,64K,1M')),
            mpi('bench_barrier', 2),
            mpi('bench_barrier', 8, '--ops=barrier,allreduce', '--sizes=1M'),
            mpi('bench_msgrate', 8, '--sizes=8,4K'),
            mpi('bench_passive', 2, '--sizes=8,64K'),
            mpi('bench_p2p', 2, '--sizes=8:4M'),
            mpi('bench_part', 2, '--sizes=64,4K,256K,4M'),
        ] + scale_runs((2, 8, 64), (2, 16, 64)) + [
            launch(8, 10),
            shm(2), shm(8), shm(64),
            shm(256, only={'shmpi'}),
        ]
    else:
        raise SystemExit('bench.py: unknown plan %r (quick, default, compare, full)' % plan)
    return timing, runs


# --------------------------------------------------------- implementations

class Impl:
    def __init__(self, name, label, bindir, launcher, env=None):
        self.name = name
        self.label = label
        self.bindir = bindir
        self.launcher = launcher  # ranks -> argv prefix
        self.env = dict(os.environ)
        self.env.update(env or {})

    def cmd(self, ranks, prog, args):
        return self.launcher(ranks) + [os.path.join(self.bindir, prog)] + list(args)


def make_impls(build, names):
    ncpu = os.cpu_count() or 1
    root_env = {}
    if os.geteuid() == 0:
        root_env = {'OMPI_ALLOW_RUN_AS_ROOT': '1', 'OMPI_ALLOW_RUN_AS_ROOT_CONFIRM': '1'}

    def ompi(extra):
        def launcher(n):
            bind = ['--bind-to', 'core'] if n <= ncpu else ['--oversubscribe', '--bind-to', 'none']
            return ['mpirun.openmpi', '-n', str(n), '--mca', 'btl', 'self,vader'] + extra + bind
        return launcher

    def mpich(n):
        return ['mpirun.mpich', '-n', str(n)] + (['-bind-to', 'core'] if n <= ncpu else [])

    shmrun = os.path.join(build, 'bin', 'shmrun')
    table = {
        'shmpi': Impl('shmpi', 'shmpi', os.path.join(build, 'bench', 'shmpi'),
                      lambda n: [shmrun, '-n', str(n)]),
        'openmpi': Impl('openmpi', 'ompi', os.path.join(build, 'bench', 'openmpi'), ompi([]),
                        root_env),
        'openmpi-oscsm': Impl('openmpi-oscsm', 'ompi-sm', os.path.join(build, 'bench', 'openmpi'),
                              ompi(['--mca', 'osc', 'sm']), root_env),
        'mpich': Impl('mpich', 'mpich', os.path.join(build, 'bench', 'mpich'), mpich),
    }
    out = []
    for n in names:
        if n not in table:
            raise SystemExit('bench.py: unknown implementation %r (%s)' % (n, ', '.join(table)))
        out.append(table[n])
    return out


def versions(impls):
    v = {}
    for impl in impls:
        try:
            if impl.name == 'shmpi':
                head = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'],
                                      capture_output=True, text=True).stdout.strip()
                dirty = subprocess.run(['git', 'status', '--porcelain', '--untracked-files=no'],
                                       capture_output=True, text=True).stdout.strip()
                v[impl.name] = 'shmpi git %s%s' % (head or '?', '+changes' if dirty else '')
            elif impl.name.startswith('openmpi'):
                out = subprocess.run(['mpirun.openmpi', '--version'], capture_output=True,
                                     text=True, env=impl.env).stdout.splitlines()
                v[impl.name] = out[0].strip() if out else '?'
            elif impl.name == 'mpich':
                out = subprocess.run(['mpichversion'], capture_output=True, text=True).stdout
                fields = dict(line.split(':', 1) for line in out.splitlines() if ':' in line)
                v[impl.name] = 'MPICH %s (%s)' % (fields.get('MPICH Version', '?').strip(),
                                                  fields.get('MPICH Device', '?').strip())
        except OSError as e:
            v[impl.name] = '? (%s)' % e
    return v


# -------------------------------------------------------------- processes

def children_map():
    kids = {}
    for d in os.listdir('/proc'):
        if not d.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % d) as f:
                stat = f.read()
        except OSError:
            continue
        # the command name may hold spaces and parentheses: ppid follows the last ')'
        ppid = int(stat[stat.rindex(')') + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(d))
    return kids


def descendants(pid):
    kids = children_map()
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for c in kids.get(p, []):
            out.append(c)
            todo.append(c)
    return out


def kill_tree(proc):
    """SIGTERM to the job's process group (launchers forward it), then SIGKILL to all"""
    pids = descendants(proc.pid)
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=KILL_GRACE_S)
    except subprocess.TimeoutExpired:
        pass
    pids += descendants(proc.pid)
    for p in [proc.pid] + pids:
        try:
            os.kill(p, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def execute(cmd, env, idle_timeout):
    """run cmd; (stdout lines, exit status, stderr text, timed out)"""
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=err, env=env, start_new_session=True)
        except OSError as e:
            return [], 127, str(e), False
        fd = proc.stdout.fileno()
        buf, lines, timed_out = b'', [], False
        last = time.monotonic()
        while True:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                buf += chunk
                last = time.monotonic()
                while b'\n' in buf:
                    line, buf = buf.split(b'\n', 1)
                    lines.append(line.decode('utf-8', 'replace'))
            elif time.monotonic() - last > idle_timeout:
                timed_out = True
                kill_tree(proc)
                break
        if buf:
            lines.append(buf.decode('utf-8', 'replace'))
        proc.stdout.close()
        try:
            rc = proc.wait(timeout=idle_timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            kill_tree(proc)
            rc = proc.wait()
        err.seek(0)
        return lines, rc, err.read().decode('utf-8', 'replace'), timed_out


def first_error(text):
    """the most telling line of a job's stderr, for a footnote"""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for words in (('signal:', 'exited on signal', 'killed by signal'),
                  ('error', 'fatal', 'abort', 'segmentation', 'unsupported', 'failed'),
                  ('signal', 'killed')):
        for l in lines:
            if any(w in l.lower() for w in words):
                return l[:160]
    return lines[-1][:160] if lines else ''


# ---------------------------------------------------------------- records

def parse_record(line):
    parts = line.split(',')
    if len(parts) < len(FIELDS):
        return None
    rec = dict(zip(FIELDS, parts[:len(FIELDS) - 1] + [','.join(parts[len(FIELDS) - 1:])]))
    try:
        rec['idx'] = int(rec['idx'])
        rec['bytes'] = int(rec['bytes'])
        rec['ranks'] = int(rec['ranks'])
        rec['median'] = float(rec['median'])
        rec['best'] = float(rec['best'])
        rec['iters'] = int(rec['iters'])
    except ValueError:
        return None
    return rec


def key_of(rec):
    return tuple(rec[k] for k in KEY)


def list_points(impl, run):
    """the points of an MPI run, by index, from the program's --list"""
    lines, rc, err, _ = execute(impl.cmd(run['ranks'], run['prog'], run['args'] +
                                         ['--csv', '--list']), impl.env, IDLE_TIMEOUT_S)
    if rc != 0:
        return None
    points = {}
    for line in lines:
        if line and not line.startswith('#'):
            rec = parse_record(line)
            if rec:
                points[rec['idx']] = rec
    return points


def failed(template, status, note):
    rec = dict(template)
    rec.update(status=status, note=note, median=0.0, best=0.0, iters=0)
    return rec


def run_mpi(impl, run, timing, points):
    """every point of one program run; crashed points are skipped over and reported"""
    got, lost = {}, {}
    skip, attempts = 0, 0
    total = max(points) + 1 if points else None
    while True:
        attempts += 1
        cmd = impl.cmd(run['ranks'], run['prog'], run['args'] + timing +
                       ['--csv', '--skip=%d' % skip])
        lines, rc, err, timed_out = execute(cmd, impl.env, IDLE_TIMEOUT_S)
        marker, top = None, skip - 1
        for line in lines:
            if line.startswith('#at '):
                a, b = line.split()[1:3]
                marker = (int(a), int(b))
            elif line and not line.startswith('#'):
                rec = parse_record(line)
                if rec:
                    got[rec['idx']] = rec
                    top = max(top, rec['idx'])
                    marker = None
        if rc == 0 and not timed_out:
            break
        status = 'timeout' if timed_out else 'crash'
        note = first_error(err) or ('exit status %d' % rc)
        if not lines or total is None:
            # died before doing anything: every remaining point shares its fate
            for i in range(skip, total or skip + 1):
                lost.setdefault(i, (status, note))
            break
        if marker:
            a, b = marker
            blamed, resume = range(max(a, top + 1), b + 1), max(b + 1, a)
        else:
            blamed, resume = [top + 1], top + 2
        for i in blamed:
            lost[i] = (status, note)
        if resume >= total or attempts >= MAX_ATTEMPTS:
            for i in range(resume, total):
                lost.setdefault(i, (status, note + ' (not retried)'))
            break
        skip = resume
    if points is None and lost:
        # no list of points: one row says that the program failed
        status, note = next(iter(lost.values()))
        got[-1] = failed(template(run['prog'], 'all', run['ranks'], '-'), status, note)
    out = []
    for i in sorted(set(points or {}) | set(got)):
        if i in got:
            out.append(got[i])
        elif i in lost:
            out.append(failed(points[i], *lost[i]))
        elif points and i in points and i >= 0:
            out.append(failed(points[i], 'crash', 'no record'))
    return out


def template(bench, op, ranks, unit):
    return {'bench': bench, 'op': op, 'type': '-', 'sync': '-', 'flavor': '-', 'bytes': 0,
            'ranks': ranks, 'unit': unit, 'median': 0.0, 'best': 0.0, 'iters': 0,
            'status': 'ok', 'note': ''}


def run_launch(impl, run):
    """wall-clock of whole init_finalize jobs, median of run['reps'], in ms"""
    rec = template('launch', 'init_finalize', run['ranks'], 'ms')
    times = []
    for _ in range(run['reps']):
        t0 = time.monotonic()
        lines, rc, err, timed_out = execute(impl.cmd(run['ranks'], run['prog'], []), impl.env,
                                            IDLE_TIMEOUT_S)
        dt = (time.monotonic() - t0) * 1000.0
        if rc != 0 or timed_out:
            return [failed(rec, 'timeout' if timed_out else 'crash',
                           first_error(err) or 'exit status %d' % rc)]
        times.append(dt)
    rec.update(median=statistics.median(times), best=min(times), iters=len(times))
    return [rec]


def smaps_shared(pids):
    """(mapped KiB, resident KiB) of the shared mappings of pids"""
    objects, resident = {}, 0
    for pid in pids:
        try:
            with open('/proc/%d/smaps' % pid) as f:
                text = f.read()
        except OSError:
            continue
        key = None
        for line in text.splitlines():
            parts = line.split()
            if not parts:
                continue
            if '-' in parts[0] and len(parts) >= 5 and not parts[0].endswith(':'):
                perms, dev, inode = parts[1], parts[3], parts[4]
                path = ' '.join(parts[5:])
                device = path.startswith('/dev/') and not path.startswith(('/dev/shm/',
                                                                           '/dev/zero'))
                if len(perms) >= 4 and perms[3] == 's' and not device:
                    key = (dev, inode, path) if inode != '0' else (pid, parts[0])
                else:
                    key = None
            elif key is not None and parts[0] == 'Size:':
                objects[key] = max(objects.get(key, 0), int(parts[1]))
            elif key is not None and parts[0] == 'Pss:':
                resident += int(parts[1])
    return sum(objects.values()), resident


def dev_shm_blocks():
    """{name: KiB of /dev/shm backing it} for every file there"""
    out = {}
    try:
        names = os.listdir('/dev/shm')
    except OSError:
        return out
    for name in names:
        try:
            st = os.lstat(os.path.join('/dev/shm', name))
        except OSError:
            continue
        out[name] = st.st_blocks // 2
    return out


def run_shm(impl, run):
    """shared memory of a job held still after MPI_Init: mapped (the size of the shared
    objects its processes map), resident (their proportional set), allocated (the memory
    /dev/shm gives the files the job created: what the machine really pays)"""
    n = run['ranks']
    recs = [template('shm', 'mapped', n, 'KiB'), template('shm', 'resident', n, 'KiB'),
            template('shm', 'allocated', n, 'KiB')]
    before = set(dev_shm_blocks())
    hold = tempfile.mktemp(prefix='shmpi-bench-hold-')
    err = tempfile.TemporaryFile()
    cmd = impl.cmd(n, run['prog'], ['--hold', hold])
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=err, env=impl.env, start_new_session=True)
    except OSError as e:
        return [failed(r, 'crash', str(e)) for r in recs]
    status, note = 'ok', ''
    deadline = time.monotonic() + HOLD_TIMEOUT_S
    while not os.path.exists(hold + '.ready'):
        if proc.poll() is not None:
            status = 'crash'
            break
        if time.monotonic() > deadline:
            status = 'timeout'
            break
        time.sleep(0.02)
    if status == 'ok':
        time.sleep(0.3)  # rank 0 is ready; let the others pass the barrier too
        mapped, resident = smaps_shared([proc.pid] + descendants(proc.pid))
        allocated = sum(kib for name, kib in dev_shm_blocks().items() if name not in before)
        recs[0].update(median=mapped, best=mapped, iters=1)
        recs[1].update(median=resident, best=resident, iters=1)
        recs[2].update(median=allocated, best=allocated, iters=1)
    with open(hold + '.go', 'w'):
        pass
    try:
        rc = proc.wait(timeout=HOLD_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        kill_tree(proc)
        rc = proc.wait()
        status = 'timeout' if status == 'ok' else status
    if status == 'ok' and rc != 0:
        status = 'crash'
    if status != 'ok':
        err.seek(0)
        note = first_error(err.read().decode('utf-8', 'replace')) or 'exit status %s' % rc
        recs = [failed(r, status, note) for r in recs]
    err.close()
    for suffix in ('.ready', '.go'):
        try:
            os.unlink(hold + suffix)
        except FileNotFoundError:
            pass
    return recs


# ----------------------------------------------------------------- table

def fmt_value(v, unit):
    """ns with one decimal; everything else with four significant digits, no exponent"""
    if unit == 'ns':
        return '%.1f' % v
    if unit == 'KiB':
        return '%.0f' % v
    if v == 0:
        return '0'
    decimals = 3 - int(math.floor(math.log10(abs(v))))
    return '%.*f' % (min(max(decimals, 0), 8), v)


class Results:
    """results[key][impl] = records of every repetition"""

    def __init__(self):
        self.order = []
        self.data = {}

    def add(self, impl, rec):
        k = key_of(rec)
        if k not in self.data:
            self.order.append(k)
            self.data[k] = {}
        self.data[k].setdefault(impl, []).append(rec)

    def summary(self, k, impl):
        """(value or None, status text, note): median over the ok repetitions"""
        recs = self.data.get(k, {}).get(impl, [])
        ok = [r for r in recs if r['status'] == 'ok']
        bad = [r for r in recs if r['status'] != 'ok']
        if ok:
            v = statistics.median([r['median'] for r in ok])
            return v, ('*' if bad else ''), (bad[0]['note'] if bad else '')
        if bad:
            return None, bad[0]['status'], bad[0]['note']
        return None, '', ''

    def matching(self, **want):
        """the keys, as dicts, of the rows with these values, in table order"""
        rows = (dict(zip(KEY, k)) for k in self.order)
        return [kd for kd in rows if all(kd[f] == v for f, v in want.items())]

    def value(self, impl, **want):
        for kd in self.matching(**want):
            return self.summary(tuple(kd[f] for f in KEY), impl)[0]
        return None


def short_status(status):
    return {'unsupported': 'unsupp', '': '-'}.get(status, status)


def print_table(results, impls, out=sys.stdout):
    names = [i.name for i in impls]
    labels = {i.name: i.label for i in impls}
    peers = [n for n in names if n != 'shmpi'] if 'shmpi' in names else []
    head = ['bench', 'op', 'type', 'sync', 'flavor', 'bytes', 'ranks', 'unit']
    head += [labels[n] for n in names]
    head += ['shmpi/' + labels[p] for p in peers]
    if len(names) == 1:
        head += ['best']
    rows, notes = [], {}
    for k in results.order:
        kd = dict(zip(KEY, k))
        row = [str(kd[f]) for f in KEY]
        vals = {}
        for n in names:
            v, st, note = results.summary(k, n)
            vals[n] = v
            if v is None:
                cell = short_status(st)
            else:
                cell = fmt_value(v, kd['unit']) + st
            if note:
                tag = notes.setdefault((labels[n], st or 'crash', note), len(notes) + 1)
                cell += '[%d]' % tag
            row.append(cell)
        for p in peers:
            a, b = vals.get('shmpi'), vals.get(p)
            row.append('%.2f' % (a / b) if a is not None and b else '-')
        if len(names) == 1:
            recs = [r for r in results.data[k].get(names[0], []) if r['status'] == 'ok']
            row.append(fmt_value(min(r['best'] for r in recs) if kd['unit'] not in
                                 HIGHER_IS_BETTER else max(r['best'] for r in recs),
                                 kd['unit']) if recs else '-')
        rows.append(row)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    left = 5  # bench op type sync flavor: left-aligned
    def line(cells):
        return '  '.join(c.ljust(widths[i]) if i < left else c.rjust(widths[i])
                         for i, c in enumerate(cells)).rstrip()
    print(line(head), file=out)
    print('  '.join('-' * w for w in widths), file=out)
    prev = None
    for r in rows:
        group = 'passive' if r[0].startswith('passive') else GROUPS.get(r[0], r[0])
        if prev is not None and group != prev:
            print('', file=out)
        prev = group
        print(line(r), file=out)
    if notes:
        print('', file=out)
        for (label, st, note), tag in sorted(notes.items(), key=lambda x: x[1]):
            print('[%d] %s %s: %s' % (tag, label, st, note), file=out)


# --------------------------------------------------------------- targets

STORE_FENCE_NS = 10.5   # 8-byte store + fence on this machine
MEMCPY_MBS = 13300.0    # memcpy of 1 MiB into rotating shared targets
FLAT = 1.2              # "flat": the largest figure at most this times the smallest


def size_text(n):
    for unit, shift in (('MiB', 20), ('KiB', 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return '%d %s' % (n >> shift, unit)
    return '%d B' % n


def check_acc_sweep(results, names, lines):
    """accumulate(double)+flush at every size of the run: shmpi <= Open MPI's osc sm"""
    desc = 'accumulate(double)+flush <= Open MPI osc sm at every size'
    if 'openmpi-oscsm' not in names:
        lines.append(('?', desc, 'Open MPI with osc sm not run'))
        return
    row = dict(bench='atomic_lat', op='acc', type='double', sync='flush', flavor='allocate',
               ranks=2, unit='ns')
    sizes = sorted(kd['bytes'] for kd in results.matching(**row))
    ratios, missing = {}, []
    for n in sizes:
        s = results.value('shmpi', bytes=n, **row)
        o = results.value('openmpi-oscsm', bytes=n, **row)
        if s is None or o is None:
            missing.append(size_text(n))
        else:
            ratios[n] = s / o
    if not ratios:
        lines.append(('-' if not sizes else '?', desc, 'no size measured by both'))
        return
    over = [n for n in sorted(ratios) if ratios[n] > 1.0]
    worst = max(ratios, key=ratios.get)
    ref = '%d sizes %s..%s; worst shmpi/ompi-sm %.2f at %s' % (
        len(ratios), size_text(min(ratios)), size_text(max(ratios)), ratios[worst],
        size_text(worst))
    if over:
        ref += '; over at ' + ', '.join('%s (%.2f)' % (size_text(n), ratios[n]) for n in over)
    if missing:
        ref += '; not compared at ' + ', '.join(missing)
    lines.append(('MISSED' if over else 'MET', desc, ref))


def check_private_copy(results, names, lines):
    """put and get on MPI_Win_create over page-aligned malloc memory (whose pages shmpi makes
    shared while the window lives, SHMPI_WIN_CREATE_SHARE): against MPI_Win_allocate in the
    same job at 1 MiB, and against the best peer at every size of the run"""
    row = dict(bench='rma_lat', type='char', sync='flush', ranks=2, unit='ns')
    desc = 'put/get 1 MiB on Win_create within 15% of Win_allocate'
    ratios, refs = [], []
    for op in ('put', 'get'):
        c = results.value('shmpi', op=op, flavor='create_malloc', bytes=1 << 20, **row)
        a = results.value('shmpi', op=op, flavor='allocate', bytes=1 << 20, **row)
        if c is None or a is None:
            refs.append('%s: not measured' % op)
            continue
        ratios.append(c / a)
        refs.append('%s %s / %s ns = %.2f' % (op, fmt_value(c, 'ns'), fmt_value(a, 'ns'), c / a))
    if not ratios:
        lines.append(('-', desc, '; '.join(refs)))
    else:
        lines.append(('MET' if len(ratios) == 2 and max(ratios) <= 1.15 else
                      'MISSED' if max(ratios) > 1.15 else '?', desc, '; '.join(refs)))
    desc = 'put/get on Win_create <= best peer at every size'
    peers = [n for n in names if n != 'shmpi']
    if not peers:
        lines.append(('?', desc, 'no peer run'))
        return
    over, compared, missing, worst = [], 0, [], None
    for op in ('put', 'get'):
        k = dict(op=op, flavor='create_malloc', **row)
        for n in sorted(kd['bytes'] for kd in results.matching(**k)):
            s = results.value('shmpi', bytes=n, **k)
            p = [x for x in (results.value(i, bytes=n, **k) for i in peers) if x is not None]
            if s is None or not p:
                missing.append('%s %s' % (op, size_text(n)))
                continue
            compared += 1
            r = s / min(p)
            if worst is None or r > worst[0]:
                worst = (r, op, n)
            if r > 1.0:
                over.append('%s %s (%.2f)' % (op, size_text(n), r))
    if not compared:
        lines.append(('-' if not missing else '?', desc, 'no size measured by both'))
        return
    ref = '%d points; worst shmpi/best peer %.2f (%s %s)' % (compared, worst[0], worst[1],
                                                             size_text(worst[2]))
    if over:
        ref += '; over at ' + ', '.join(over)
    if missing:
        ref += '; not compared at ' + ', '.join(missing)
    lines.append(('MISSED' if over else 'MET', desc, ref))


def check_shm(v, verdict, lines):
    """the job's shared memory (what /dev/shm allocates to it) and launch time by ranks"""
    def alloc(n):
        return v('shmpi', bench='shm', op='allocated', ranks=n)

    a8, a1024 = alloc(8), alloc(1024)
    verdict('shared memory at 8 ranks <= 4.6 MiB', a8, None if a8 is None else a8 <= 4.6 * 1024,
            'allocated %s KiB, mapped %s KiB' % (
                fmt_value(a8, 'KiB') if a8 is not None else '-',
                fmt_value(v('shmpi', bench='shm', op='mapped', ranks=8) or 0, 'KiB')))
    verdict('shared memory at 1024 ranks <= 256 MiB', a1024,
            None if a1024 is None else a1024 <= 256 * 1024,
            'allocated %s KiB' % (fmt_value(a1024, 'KiB') if a1024 is not None else '-'))
    known = [(n, alloc(n)) for n in (2, 8, 64, 256, 512, 1024) if alloc(n) is not None]
    if known:
        lines.append(('info', 'shared memory and launch by ranks', ', '.join(
            '%d: %s KiB%s' % (n, fmt_value(a, 'KiB'), ''.join(
                ' %s ms' % fmt_value(t, 'ms') for t in
                [v('shmpi', bench='launch', op='init_finalize', ranks=n, unit='ms')]
                if t is not None)) for n, a in known)))


def check_scaling(results, lines):
    """bench_scale: exclusive against shared locks, and figures flat as ranks are added"""
    def v(bench, sync, nbytes, ranks):
        return results.value('shmpi', bench=bench, sync=sync, bytes=nbytes, ranks=ranks,
                             flavor='allocate', unit='ns')

    def spread(bench, sync, nbytes):
        """(largest / smallest or None, 'n ranks x ns, ..')"""
        ranks = sorted({kd['ranks'] for kd in results.matching(bench=bench)})
        vals = [(n, v(bench, sync, nbytes, n)) for n in ranks]
        vals = [(n, x) for n, x in vals if x is not None]
        text = ', '.join('%d ranks %s' % (n, fmt_value(x, 'ns')) for n, x in vals) or '-'
        if len(vals) < 2:
            return None, text
        xs = [x for _, x in vals]
        return max(xs) / min(xs), text + ' ns; max/min %.2f' % (max(xs) / min(xs))

    excl, shared = v('lock_ring', 'lock_excl', 8, 2), v('lock_ring', 'lock_shared', 8, 2)
    desc = 'lock_ring exclusive <= 1.5x shared, 2 ranks'
    if excl is None:
        lines.append(('-', desc, 'no shmpi figure'))
    elif shared is None:
        lines.append(('?', desc, 'no shared figure'))
    else:
        lines.append(('MET' if excl <= 1.5 * shared else 'MISSED', desc,
                      'exclusive %s ns, shared %s ns: %.2fx' % (
                          fmt_value(excl, 'ns'), fmt_value(shared, 'ns'), excl / shared)))

    def flat(desc, bench, sync, nbytes, mark=True):
        ratio, text = spread(bench, sync, nbytes)
        if not mark:
            lines.append(('info', desc, text))
        elif ratio is None:
            lines.append(('-' if text == '-' else '?', desc + ' (within 20%)', text))
        else:
            lines.append(('MET' if ratio <= FLAT else 'MISSED', desc + ' (within 20%)', text))

    flat('lock_ring exclusive flat over ranks', 'lock_ring', 'lock_excl', 8)
    flat('lock_ring shared over ranks', 'lock_ring', 'lock_shared', 8, mark=False)
    flat('lock_all+put+unlock_all over ranks (a lock per target)', 'lock_all_one', 'lock_all',
         8, mark=False)
    for bench, mark in (('acc_one', True), ('acc_ring', False)):
        for count in (1, 8):
            flat('%s %d double%s+flush %sover ranks' % (bench, count, 's' if count > 1 else '',
                                                       'flat ' if mark else ''),
                 bench, 'flush', 8 * count, mark)


def check_targets(results, impls, out=sys.stdout):
    """the speed targets (README, "Performance"), against this run's numbers"""
    names = {i.name for i in impls}
    if 'shmpi' not in names:
        return
    ompi = [n for n in ('openmpi', 'openmpi-oscsm') if n in names]
    peers = [n for n in names if n != 'shmpi']

    def v(impl, **k):
        return results.value(impl, **k)

    def best_of(impls_, higher, **k):
        vals = [x for x in (v(i, **k) for i in impls_) if x is not None]
        if not vals:
            return None
        return max(vals) if higher else min(vals)

    lines = []

    def verdict(desc, shm, ok, ref):
        if shm is None:
            lines.append(('-', desc, 'no shmpi figure'))
        elif ok is None:
            lines.append(('?', desc, ref))
        else:
            lines.append(('MET' if ok else 'MISSED', desc, ref))

    lat = dict(type='char', flavor='allocate', bytes=8, ranks=2, unit='ns')
    flush_rows = [
        ('put+flush', dict(bench='rma_lat', op='put', sync='flush', **lat)),
        ('get+flush', dict(bench='rma_lat', op='get', sync='flush', **lat)),
        ('acc(double)+flush', dict(bench='atomic_lat', op='acc', sync='flush',
                                   **dict(lat, type='double'))),
        ('fetch_and_op(int64)+flush', dict(bench='atomic_lat', op='fop', sync='flush',
                                           **dict(lat, type='int64'))),
        ('compare_and_swap(int64)+flush', dict(bench='atomic_lat', op='cas', sync='flush',
                                               **dict(lat, type='int64'))),
    ]
    for desc, k in flush_rows:
        s = v('shmpi', **k)
        o = best_of(ompi, False, **k)
        cap = 3 * STORE_FENCE_NS
        ok = None if s is None else (s <= cap and (o is None or s <= o))
        if ok is False:
            desc += ' (over %s)' % ' and '.join(
                w for w, bad in (('Open MPI', o is not None and s > o), ('the cap', s > cap))
                if bad)
        ref = 'shmpi %s ns; Open MPI best %s; cap 3x store+fence = %.1f ns' % (
            fmt_value(s, 'ns') if s is not None else '-',
            fmt_value(o, 'ns') + ' ns' if o is not None else 'not measured', cap)
        verdict(desc + ' <= Open MPI and <= 3x store+fence', s, ok, ref)

    # malloc memory (page-aligned, so shmpi shares its pages while the
    # window lives), against Open MPI's MPI_Win_create windows (about
    # 0.7 us put+flush, 0.8 us lock+put+unlock with the OSU suite on the
    # reference machine)
    for sync, osu in (('flush', 700.0), ('lock', 800.0)):
        k = dict(bench='rma_lat', op='put', sync=sync, **dict(lat, flavor='create_malloc'))
        s = v('shmpi', **k)
        o = best_of(ompi, False, **k)
        limit = o if o is not None else osu
        ok = None if s is None else s <= limit
        verdict('put+%s on malloc memory <= Open MPI (MPI_Win_create)' % sync, s, ok,
                'shmpi %s ns; Open MPI best %s; limit %.0f ns' % (
                    fmt_value(s, 'ns') if s is not None else '-',
                    fmt_value(o, 'ns') + ' ns' if o is not None else
                    'not measured (OSU: %.0f ns)' % osu, limit))

    def half_of_ompi(desc, k, factor):
        s = v('shmpi', **k)
        o = best_of(ompi, False, **k)
        ok = None if (s is None or o is None) else s <= factor * o
        ref = 'shmpi %s; Open MPI best %s; limit %s' % (
            fmt_value(s, k['unit']) if s is not None else '-',
            fmt_value(o, k['unit']) if o is not None else 'not measured',
            fmt_value(factor * o, k['unit']) if o is not None else '-')
        verdict(desc, s, ok, ref)

    for op in ('put', 'get'):
        for sync in ('lock', 'lock_all'):
            half_of_ompi('%s+%s (ns) <= 1/2 Open MPI' % (sync, op),
                         dict(bench='rma_lat', op=op, sync=sync, **lat), 0.5)
    for sync in ('fence', 'pscw'):
        half_of_ompi('%s put (ns) <= 1/2 Open MPI' % sync,
                     dict(bench='rma_lat', op='put', sync=sync, **lat), 0.5)
    for op in ('put', 'get'):
        k = dict(bench='rma_bw', op=op, type='char', sync='flush', flavor='allocate',
                 bytes=1 << 20, ranks=2, unit='MB/s')
        s = v('shmpi', **k)
        o = best_of(ompi, True, **k)
        floor = 0.9 * MEMCPY_MBS
        ok = None if s is None else (s >= floor and (o is None or s >= 1.05 * o))
        why = ''
        if ok is False:
            why = ' (under %s)' % ' and '.join(
                w for w, bad in (('1.05x Open MPI', o is not None and s < 1.05 * o),
                                 ('the floor', s < floor)) if bad)
        ref = 'shmpi %s MB/s; Open MPI best %s; floor 90%% of memcpy = %.0f MB/s' % (
            fmt_value(s, 'MB/s') if s is not None else '-',
            fmt_value(o, 'MB/s') + ' MB/s (x1.05 = %.0f)' % (1.05 * o) if o is not None
            else 'not measured', floor)
        verdict('%s bandwidth 1 MiB >= 1.05x Open MPI and >= 90%% memcpy%s' % (op, why), s, ok,
                ref)
    # point-to-point against the better of Open MPI and MPICH (OSU's
    # osu_latency and osu_bw patterns, tools/bench/bench_p2p.c)
    for nbytes, factor in ((8, 0.9), (1 << 20, 0.8)):
        k = dict(bench='p2p_lat', op='lat', type='char', sync='none', flavor='malloc',
                 bytes=nbytes, ranks=2, unit='ns')
        s = v('shmpi', **k)
        p = best_of(peers, False, **k)
        verdict('send/recv latency %s <= %.1fx best peer' % (size_text(nbytes), factor), s,
                None if s is None or p is None else s <= factor * p,
                'shmpi %s ns; best peer %s' % (
                    fmt_value(s, 'ns') if s is not None else '-',
                    fmt_value(p, 'ns') + ' ns (x%.1f = %.0f)' % (factor, factor * p)
                    if p is not None else 'not measured'))
    for nbytes, factor in ((8, 1.0), (1 << 20, 1.2)):
        k = dict(bench='p2p_bw', op='bw', type='char', sync='none', flavor='malloc',
                 bytes=nbytes, ranks=2, unit='MB/s')
        s = v('shmpi', **k)
        p = best_of(peers, True, **k)
        floor = 0.8 * MEMCPY_MBS if nbytes >= 1 << 20 else 0.0
        ok = None if s is None or p is None else (s >= factor * p and s >= floor)
        verdict('send/recv bandwidth %s >= %.1fx best peer%s' % (
            size_text(nbytes), factor, ' and >= 80% memcpy' if floor else ''), s, ok,
            'shmpi %s MB/s; best peer %s%s' % (
                fmt_value(s, 'MB/s') if s is not None else '-',
                fmt_value(p, 'MB/s') + ' MB/s (x%.1f = %.0f)' % (factor, factor * p)
                if p is not None else 'not measured',
                '; floor %.0f MB/s' % floor if floor else ''))
    half_of_ompi('accumulate 1 MiB doubles (ns) <= 1.1x Open MPI',
                 dict(bench='atomic_lat', op='acc', type='double', sync='flush',
                      flavor='allocate', bytes=1 << 20, ranks=2, unit='ns'), 1.1)
    check_acc_sweep(results, names, lines)
    check_private_copy(results, names, lines)
    check_scaling(results, lines)
    k = dict(bench='barrier', op='barrier', ranks=8, unit='ns')
    half_of_ompi('barrier 8 ranks on %d cores (ns) <= Open MPI' % (os.cpu_count() or 1), k, 1.0)
    # MPI_Allreduce of 1 MiB of doubles at 8 ranks, against the better peer
    k = dict(bench='allreduce', op='allreduce', bytes=1 << 20, ranks=8, unit='ns')
    s = v('shmpi', **k)
    p = best_of(peers, False, **k)
    verdict('allreduce 1 MiB, 8 ranks on %d cores <= best peer' % (os.cpu_count() or 1), s,
            None if s is None or p is None else s <= p,
            'shmpi %s ns; best peer %s' % (fmt_value(s, 'ns') if s is not None else '-',
                                          fmt_value(p, 'ns') + ' ns' if p is not None
                                          else 'not measured'))
    k = dict(bench='launch', op='init_finalize', ranks=8, unit='ms')
    s = v('shmpi', **k)
    p = best_of(peers, False, **k)
    ok = None if s is None else (s < 30 and (p is None or s <= p / 10))
    why = ''
    if ok is False:
        why = ' (%s)' % ' and '.join(w for w, bad in (('>= 30 ms', s >= 30),
                                                     ('> 1/10 peer', p is not None and s > p / 10))
                                     if bad)
    verdict('8-rank launch+init+finalize < 30 ms and <= 1/10 of either peer' + why, s, ok,
            'shmpi %s ms; fastest peer %s' % (fmt_value(s, 'ms') if s is not None else '-',
                                              fmt_value(p, 'ms') + ' ms' if p is not None
                                              else 'not measured'))
    check_shm(v, verdict, lines)
    print('\nSpeed targets (medians of this run):', file=out)
    w = max(len(l[1]) for l in lines)
    for mark, desc, ref in lines:
        print('  %-6s %s  %s' % (mark, desc.ljust(w), ref), file=out)


# ------------------------------------------------------------------ main

def ensure_built(impls, runs):
    missing = []
    for impl in impls:
        for run in runs:
            path = os.path.join(impl.bindir, run['prog'])
            if not os.access(path, os.X_OK):
                missing.append(path)
    if missing:
        raise SystemExit('bench.py: not built: %s\n(make bench-build, or make bench-compare)' %
                         ', '.join(sorted(set(missing))))


def do_peers():
    have = shutil.which('dpkg-query') is not None
    missing = []
    for pkg in PEER_PKGS:
        if have:
            st = subprocess.run(['dpkg-query', '-W', '-f=${Status}', pkg], capture_output=True,
                                text=True).stdout
            if 'install ok installed' not in st:
                missing.append(pkg)
    for tool in ('mpicc.openmpi', 'mpirun.openmpi', 'mpicc.mpich', 'mpirun.mpich'):
        if not have and shutil.which(tool) is None:
            missing = PEER_PKGS
    if not missing:
        return 0
    cmd = ['apt-get', 'install', '-y', '-qq'] + missing
    if os.geteuid() != 0:
        log('bench-compare needs Open MPI and MPICH:%s' % ''.join(' ' + m for m in missing))
        log('run as root:  apt-get update && ' + ' '.join(cmd))
        return 1
    log('bench: installing%s' % ''.join(' ' + m for m in missing))
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    subprocess.run(['apt-get', 'update', '-qq'], env=env, stdout=subprocess.DEVNULL, check=False)
    r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL)
    return 0 if r.returncode == 0 else 1


def write_outputs(results, impls, info, outdir):
    os.makedirs(outdir, exist_ok=True)
    rows = []
    for k in results.order:
        entry = dict(zip(KEY, k))
        entry['results'] = {}
        for impl in impls:
            recs = results.data[k].get(impl.name, [])
            v, st, note = results.summary(k, impl.name)
            entry['results'][impl.name] = {
                'median': v, 'status': 'ok' if v is not None else (st or 'missing'),
                'note': note, 'reps': [{f: r[f] for f in ('median', 'best', 'iters', 'status',
                                                         'note')} for r in recs]}
        rows.append(entry)
    with open(os.path.join(outdir, 'results.json'), 'w') as f:
        json.dump({'info': info, 'rows': rows}, f, indent=1)
    with open(os.path.join(outdir, 'results.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(list(KEY) + ['impl', 'median_of_reps', 'reps', 'status', 'note'])
        for entry in rows:
            for impl in impls:
                r = entry['results'][impl.name]
                w.writerow([entry[k] for k in KEY] + [impl.name, '' if r['median'] is None else
                                                      r['median'], len(r['reps']), r['status'],
                                                      r['note']])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('command', choices=['run', 'compare', 'peers'])
    ap.add_argument('--build', default='build', help='build directory (default build)')
    ap.add_argument('--plan', help='quick, default, compare or full')
    ap.add_argument('--reps', type=int, help='repetitions of every run (median)')
    ap.add_argument('--impls', help='comma-separated: shmpi,openmpi,openmpi-oscsm,mpich')
    ap.add_argument('--only', help='run only the programs named here (comma-separated)')
    args = ap.parse_args()

    if args.command == 'peers':
        return do_peers()
    compare = args.command == 'compare'
    plan = args.plan or ('compare' if compare else 'default')
    reps = args.reps or (3 if compare else 1)
    names = (args.impls or ('shmpi,openmpi,openmpi-oscsm,mpich' if compare else 'shmpi'))
    impls = make_impls(args.build, names.split(','))
    if 'shmpi' not in [i.name for i in impls]:
        raise SystemExit('bench.py: shmpi must be one of the implementations')
    shmpi = next(i for i in impls if i.name == 'shmpi')
    timing, runs = plan_runs(plan)
    if args.only:
        keep = set(args.only.split(','))
        runs = [r for r in runs if r['prog'] in keep or r['kind'] in keep]
    ensure_built(impls, runs)

    info = {'date': time.strftime('%Y-%m-%d %H:%M:%S'), 'plan': plan, 'reps': reps,
            'host': platform.node(), 'cpus': os.cpu_count(),
            'cpu': next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo')
                         if l.startswith('model name')), '?'),
            'kernel': platform.release(), 'versions': versions(impls),
            'load_before': [round(x, 2) for x in os.getloadavg()]}
    log('bench: plan %s, %d repetition(s), %s' % (plan, reps, ', '.join(i.name for i in impls)))
    results = Results()
    t_start = time.monotonic()
    for n, run in enumerate(runs, 1):
        points = list_points(shmpi, run) if run['kind'] == 'mpi' else None
        if run['kind'] == 'mpi' and points is None:
            log('bench: %s --list failed under shmpi; its points are named after the first '
                'record' % run['prog'])
        for rep in range(reps):
            for impl in impls:
                if run['only'] and impl.name not in run['only']:
                    if rep == 0 and run['kind'] == 'mpi' and run['why'] and points:
                        for i in sorted(points):
                            results.add(impl.name, failed(points[i], 'skipped', run['why']))
                    continue
                t0 = time.monotonic()
                if run['kind'] == 'mpi':
                    recs = run_mpi(impl, run, timing, points)
                elif run['kind'] == 'launch':
                    recs = run_launch(impl, run)
                else:
                    recs = run_shm(impl, run)
                for r in recs:
                    r['ranks'] = int(r['ranks'])
                    results.add(impl.name, r)
                bad = sum(1 for r in recs if r['status'] not in ('ok', 'unsupported'))
                log('bench: [%d/%d] %-13s %-14s %2d ranks rep %d: %d points%s, %.1f s' % (
                    n, len(runs), run['prog'], impl.name, run['ranks'], rep + 1, len(recs),
                    ' (%d failed)' % bad if bad else '', time.monotonic() - t0))
    info['seconds'] = round(time.monotonic() - t_start, 1)
    info['load_after'] = [round(x, 2) for x in os.getloadavg()]

    print('# %s plan, %d repetition(s), medians; %s; %d x %s' % (
        plan, reps, info['date'], info['cpus'], info['cpu']))
    print('# load average (1, 5, 15 min) before %s, after %s: other work on the machine '
          'skews the figures' % (' '.join(map(str, info['load_before'])),
                                 ' '.join(map(str, info['load_after']))))
    for impl in impls:
        print('# %-8s %s' % (impl.label, info['versions'].get(impl.name, '?')))
    print('# ns: lower is better; MB/s, Mmsg/s: higher is better; shmpi/peer is the ratio '
          'of the two figures')
    print('# * = some repetitions failed; [n] = note below the table')
    print()
    print_table(results, impls)
    check_targets(results, impls)
    outdir = os.path.join(args.build, 'bench')
    write_outputs(results, impls, info, outdir)
    log('bench: %.0f s; results in %s/results.json and results.csv' % (info['seconds'], outdir))
    return 0


if __name__ == '__main__':
    sys.exit(main())
