#!/usr/bin/env python3
"""The throwaway PostgreSQL server of memkit's PostgreSQL tests (spec memorybox.md §9: "its tests
run against a real PostgreSQL server that the test command starts").

    pg_server.py start DIR     a fresh cluster in DIR/data, started; writes DIR/conninfo, DIR/env.json
    pg_server.py restart DIR   restarts it (same socket and port), for the reconnect tests
    pg_server.py stop DIR      stops it and removes the cluster and the socket folder

The server listens on a socket in a short folder under /tmp (a socket path must fit in 107 bytes,
and a build tree rarely does) and on 127.0.0.1 at a free port. The superuser `postgres` logs in
without a password; the role `memkit_test` (password 'right', owner of the database memkit_test)
must give its password (scram-sha-256), for the wrong-password test. initdb refuses to run as
root, so as root every server program runs as the user `postgres`.

Any failure exits non-zero with the reason (and the server log, when there is one) on stderr, so
the ctest fixture fails loudly instead of letting the tests run against nothing.
"""

import json
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile

BIN_DIR = os.environ.get("MEMKIT_PG_BIN", "/usr/lib/postgresql/15/bin")
SERVER_USER = "postgres"  # the system user that runs the server when we are root
PASSWORD_ROLE = "memkit_test"
PASSWORD = "right"


class Failure(Exception):
    pass


def program(name):
    path = os.path.join(BIN_DIR, name)
    if not os.access(path, os.X_OK):
        raise Failure(f"{path} not found: install postgresql-15 (scripts/bootstrap) "
                      f"or set MEMKIT_PG_BIN to PostgreSQL's bin folder")
    return path


def as_server_user(command):
    """The command, run as the server's user: ourselves, or `postgres` when we are root."""
    if os.geteuid() != 0:
        return command
    if shutil.which("runuser"):
        return ["runuser", "-u", SERVER_USER, "--"] + command
    return ["su", SERVER_USER, "-s", "/bin/sh", "-c", shlex.join(command)]


def run(command, what, log=None):
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        detail = done.stdout.strip()
        if log and os.path.exists(log):
            with open(log, encoding="utf-8", errors="replace") as f:
                detail += "\n--- server log ---\n" + "".join(f.readlines()[-40:])
        raise Failure(f"{what} failed (exit {done.returncode}):\n{detail}")
    return done.stdout


def give_to_server_user(path):
    if os.geteuid() == 0:
        user = pwd.getpwnam(SERVER_USER)
        os.chown(path, user.pw_uid, user.pw_gid)


def server_user_can_use(path):
    """Whether the server's user can reach and write `path` (every parent must be searchable)."""
    if os.geteuid() != 0:
        return True
    test = ["test", "-w", path] + (["-a", "-x", path] if os.path.isdir(path) else [])
    return subprocess.run(as_server_user(test)).returncode == 0


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_env(directory):
    path = os.path.join(directory, "env.json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def pg_ctl(env, *arguments):
    return as_server_user([program("pg_ctl"), "-D", env["data_dir"], "-l", env["log"], "-w",
                           "-t", "60"] + list(arguments))


def start(directory):
    directory = os.path.abspath(directory)
    stop(directory, quiet=True)  # a server left behind by an interrupted run
    os.makedirs(directory, exist_ok=True)
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SERVER_USER)
        except KeyError:
            raise Failure(f"running as root, but there is no user '{SERVER_USER}' to run "
                          f"PostgreSQL as (initdb refuses root)")
    initdb, psql = program("initdb"), program("psql")
    program("pg_ctl")

    socket_dir = tempfile.mkdtemp(prefix="mkpg", dir="/tmp")
    give_to_server_user(socket_dir)
    env = {"socket_dir": socket_dir, "log": os.path.join(directory, "server.log")}
    # Written first, so that `stop` can clean up whatever a failed start leaves behind.
    write_env(directory, env)

    data_dir = os.path.join(directory, "data")
    os.makedirs(data_dir)
    give_to_server_user(data_dir)
    if not server_user_can_use(data_dir):
        # A build tree below a private home folder: the cluster goes next to the socket instead.
        shutil.rmtree(data_dir)
        data_dir = os.path.join(socket_dir, "data")
        os.makedirs(data_dir)
        give_to_server_user(data_dir)
    env["data_dir"] = data_dir
    with open(env["log"], "w"):
        pass
    give_to_server_user(env["log"])
    if not server_user_can_use(env["log"]):
        env["log"] = os.path.join(socket_dir, "server.log")
    write_env(directory, env)

    run(as_server_user([initdb, "-D", data_dir, "-U", "postgres", "-A", "trust", "-E", "UTF8",
                        "--locale=C", "--no-sync"]), "initdb")
    port = free_port()
    with open(os.path.join(data_dir, "postgresql.conf"), "a", encoding="utf-8") as f:
        f.write("\n# memkit tests (tests/postgres/pg_server.py)\n"
                f"listen_addresses = '127.0.0.1'\nport = {port}\n"
                f"unix_socket_directories = '{socket_dir}'\n"
                "max_connections = 60\npassword_encryption = 'scram-sha-256'\n")
    # The password role must always give its password; everyone else is trusted.
    with open(os.path.join(data_dir, "pg_hba.conf"), "w", encoding="utf-8") as f:
        f.write(f"local all {PASSWORD_ROLE} scram-sha-256\n"
                f"host  all {PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256\n"
                "local all all trust\n"
                "host  all all 127.0.0.1/32 trust\n")
    env["port"] = port
    write_env(directory, env)
    run(pg_ctl(env, "start"), "pg_ctl start", env["log"])

    superuser = f"host={socket_dir} port={port} user=postgres dbname=postgres"
    for statement in (f"CREATE ROLE {PASSWORD_ROLE} LOGIN PASSWORD '{PASSWORD}'",
                      f"CREATE DATABASE {PASSWORD_ROLE} OWNER {PASSWORD_ROLE}"):
        run([psql, "-X", "-v", "ON_ERROR_STOP=1", "-d", superuser, "-c", statement],
            f"psql: {statement.split(' PASSWORD')[0]}", env["log"])

    env.update({
        "conninfo": superuser,
        "password_role": PASSWORD_ROLE,
        "password": PASSWORD,
        "password_dbname": PASSWORD_ROLE,
        "restart": [sys.executable, os.path.abspath(__file__), "restart", directory],
    })
    write_env(directory, env)
    with open(os.path.join(directory, "conninfo"), "w", encoding="utf-8") as f:
        f.write(superuser + "\n")
    print(f"pg_server: PostgreSQL is running: {superuser}")


def write_env(directory, env):
    path = os.path.join(directory, "env.json")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(env, f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(path + ".tmp", path)


def restart(directory):
    env = read_env(os.path.abspath(directory))
    if env is None or "port" not in env:
        raise Failure(f"no server was started in {directory}")
    run(pg_ctl(env, "restart", "-m", "fast"), "pg_ctl restart", env["log"])


def stop(directory, quiet=False):
    directory = os.path.abspath(directory)
    env = read_env(directory)
    if env is None:
        if not quiet:
            print(f"pg_server: nothing to stop in {directory}")
        return
    data_dir = env.get("data_dir")
    if data_dir and os.path.exists(os.path.join(data_dir, "postmaster.pid")):
        done = subprocess.run(pg_ctl(env, "stop", "-m", "fast"), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0 and not quiet:
            print(done.stdout.strip(), file=sys.stderr)
    for path in (data_dir, env.get("socket_dir")):
        if path:
            shutil.rmtree(path, ignore_errors=True)
    for name in ("conninfo", "env.json"):
        try:
            os.remove(os.path.join(directory, name))
        except FileNotFoundError:
            pass
    if not quiet:
        print("pg_server: stopped")


def main(argv):
    if len(argv) != 3 or argv[1] not in ("start", "stop", "restart"):
        print("usage: pg_server.py start|stop|restart DIR", file=sys.stderr)
        return 2
    action, directory = argv[1], argv[2]
    try:
        if action == "start":
            try:
                start(directory)
            except BaseException:
                stop(directory, quiet=True)
                raise
        elif action == "restart":
            restart(directory)
        else:
            stop(directory)
    except Failure as failure:
        print(f"pg_server: {action}: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
