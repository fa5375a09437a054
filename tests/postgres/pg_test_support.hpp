// What the PostgreSQL adapter's tests share: the server pg_server.py started (MEMKIT_TEST_PG_DIR),
// a plain libpq connection for setting up and inspecting rows beside the adapter, fresh
// workspaces and databases, and records of each table.
#pragma once

#include <doctest/doctest.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "memkit/memorybox/sync.hpp"
#include "sync/postgres/postgres.hpp"

namespace memkit::pg_test {

using memorybox::SyncRecord;
using memorybox::SyncTable;

// The server of this ctest run, as pg_server.py described it in MEMKIT_TEST_PG_DIR. Without the
// variable the test fails: these tests only mean something against a real server.
struct Server {
  std::string dir;
  std::string conninfo;  // the superuser, trusted on the socket
  nlohmann::json env;    // env.json: socket_dir, port, password_role, password, restart, ...
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

inline Server server() {
  const char* dir = std::getenv("MEMKIT_TEST_PG_DIR");
  if (dir == nullptr || *dir == '\0') {
    FAIL(
        "MEMKIT_TEST_PG_DIR is not set: run these tests through ctest, whose fixture starts the "
        "server (tests/postgres/pg_server.py start DIR)");
  }
  Server s;
  s.dir = dir;
  s.conninfo = read_text(s.dir + "/conninfo");
  while (!s.conninfo.empty() && (s.conninfo.back() == '\n' || s.conninfo.back() == ' ')) {
    s.conninfo.pop_back();
  }
  s.env = nlohmann::json::parse(read_text(s.dir + "/env.json"));
  return s;
}

// A 64-bit random number from the OS, so that parallel test processes never pick the same names.
inline std::uint64_t random_u64() {
  static thread_local std::mt19937_64 generator(std::random_device{}() ^
                                                (std::uint64_t{std::random_device{}()} << 32));
  return generator();
}

// A fresh random workspace id (UUID version 4), so that tests never see each other's rows.
inline std::string new_workspace() {
  std::array<std::uint8_t, 16> b{};
  for (std::size_t i = 0; i < b.size(); i += 8) {
    const std::uint64_t r = random_u64();
    for (std::size_t k = 0; k < 8; ++k) b[i + k] = static_cast<std::uint8_t>(r >> (8 * k));
  }
  b[6] = static_cast<std::uint8_t>(0x40 | (b[6] & 0x0F));
  b[8] = static_cast<std::uint8_t>(0x80 | (b[8] & 0x3F));
  constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[b[i] >> 4];
    out += kHex[b[i] & 0x0F];
  }
  return out;
}

// A unique name for a database or an application_name.
inline std::string unique_name(const std::string& prefix) {
  std::ostringstream name;
  name << prefix << std::hex << random_u64();
  return name.str();
}

// A TCP port of 127.0.0.1 where nothing listens (it was free a moment ago).
inline int unused_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  socklen_t length = sizeof address;
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  ::close(fd);
  return ntohs(address.sin_port);
}

// A plain libpq connection for what the adapter does not offer: raw rows, counts, other
// databases, terminating backends.
class Sql final {
 public:
  explicit Sql(const std::string& conninfo) : conn_(PQconnectdb(conninfo.c_str()), &PQfinish) {
    REQUIRE_MESSAGE(PQstatus(conn_.get()) == CONNECTION_OK,
                    "raw connection failed: " << std::string(PQerrorMessage(conn_.get())));
    PQsetNoticeProcessor(
        conn_.get(), [](void*, const char*) {}, nullptr);
  }

  using Row = std::vector<std::optional<std::string>>;

  // Runs one statement with text parameters; the test fails when the statement does.
  std::vector<Row> query(const std::string& sql, const std::vector<std::string>& params = {}) {
    std::vector<const char*> values;
    for (const std::string& p : params) values.push_back(p.c_str());
    const std::unique_ptr<PGresult, decltype(&PQclear)> result(
        PQexecParams(conn_.get(), sql.c_str(), static_cast<int>(values.size()), nullptr,
                     values.data(), nullptr, nullptr, 0),
        &PQclear);
    const ExecStatusType status = PQresultStatus(result.get());
    REQUIRE_MESSAGE((status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK),
                    sql << ": " << std::string(PQresultErrorMessage(result.get())));
    std::vector<Row> rows;
    for (int r = 0; r < PQntuples(result.get()); ++r) {
      Row row;
      for (int c = 0; c < PQnfields(result.get()); ++c) {
        if (PQgetisnull(result.get(), r, c)) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(std::string(PQgetvalue(result.get(), r, c),
                                       static_cast<std::size_t>(PQgetlength(result.get(), r, c))));
        }
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  // The one value of a one-row, one-column query.
  std::string scalar(const std::string& sql, const std::vector<std::string>& params = {}) {
    const std::vector<Row> rows = query(sql, params);
    REQUIRE(rows.size() == 1);
    REQUIRE(rows[0].size() == 1);
    REQUIRE(rows[0][0].has_value());
    return *rows[0][0];
  }

  long long count(const std::string& sql, const std::vector<std::string>& params = {}) {
    return std::stoll(scalar(sql, params));
  }

 private:
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn_;
};

// A database of its own, for the schema tests; `conninfo` connects to it.
struct Database {
  std::string name;
  std::string conninfo;
};

inline Database new_database(const Server& s) {
  Database db;
  db.name = unique_name("memkit_t_");
  Sql(s.conninfo).query("CREATE DATABASE " + db.name);
  db.conninfo = s.conninfo + " dbname=" + db.name;  // the later dbname wins
  return db;
}

inline std::unique_ptr<sync::Remote> open_remote(const std::string& conninfo) {
  Result<std::unique_ptr<sync::Remote>> remote = sync::open_postgres_remote(conninfo);
  REQUIRE_MESSAGE(remote.ok(), remote.status().message());
  return std::move(remote).value();
}

// Rows of every count the workspace holds, over the three tables.
inline long long rows_of(Sql& sql, const std::string& workspace) {
  return sql.count(
      "SELECT (SELECT count(*) FROM memories WHERE workspace_id = $1::uuid) + "
      "(SELECT count(*) FROM session_logs WHERE workspace_id = $1::uuid) + "
      "(SELECT count(*) FROM daily_logs WHERE workspace_id = $1::uuid)",
      {workspace});
}

inline SyncRecord memory(const std::string& workspace, std::string id, std::string text,
                         std::string updated_at, std::uint32_t confidence = 80) {
  return SyncRecord{.id = std::move(id),
                    .workspace_id = workspace,
                    .table = SyncTable::memories,
                    .file = "memory/LONG_TERM.md",
                    .category = "fact",
                    .text = std::move(text),
                    .confidence = confidence,
                    .verified = "2026-11-30",
                    .updated_at = std::move(updated_at),
                    .deleted = false};
}

inline SyncRecord log_record(const std::string& workspace, SyncTable table, std::string id,
                             std::string text, std::string updated_at) {
  return SyncRecord{.id = std::move(id),
                    .workspace_id = workspace,
                    .table = table,
                    .file = table == SyncTable::daily_logs ? "memory/daily/2026-11-30.md"
                                                           : "memory/SESSION_LOG.md",
                    .category = std::nullopt,
                    .text = std::move(text),
                    .confidence = std::nullopt,
                    .verified = std::nullopt,
                    .updated_at = std::move(updated_at),
                    .deleted = false};
}

// `records` ordered by table, then id: pulls return them by revision.
inline std::vector<SyncRecord> sorted(std::vector<SyncRecord> records) {
  std::sort(records.begin(), records.end(), [](const SyncRecord& a, const SyncRecord& b) {
    return std::tie(a.table, a.id) < std::tie(b.table, b.id);
  });
  return records;
}

// A millisecond time of 2026-11-30, `ms` milliseconds after 10:00:00.000Z (ms < 60,000).
inline std::string at_ms(int ms) {
  const std::string seconds = std::to_string(100 + ms / 1000).substr(1);
  const std::string millis = std::to_string(1000 + ms % 1000).substr(1);
  return "2026-11-30T10:00:" + seconds + "." + millis + "Z";
}

}  // namespace memkit::pg_test
