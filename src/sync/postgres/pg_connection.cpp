// One libpq connection of the PostgreSQL adapter (pg_connection.hpp).
#include "pg_connection.hpp"

#include <poll.h>

#include <climits>
#include <vector>

namespace memkit::detail::pg {

namespace {

// Each COPY message carries about this many bytes: large enough that the per-message cost
// vanishes, small enough that encoding and storing overlap.
constexpr std::size_t kCopyChunk = std::size_t{1} << 20;

// The server's NOTICE and WARNING messages, and a FATAL message that arrives while the
// connection is idle, would otherwise go to stderr: a library does not print.
void ignore_notice(void* /*arg*/, const char* /*message*/) {}

std::string_view first_line(std::string_view message) {
  message = message.substr(0, message.find('\n'));
  while (!message.empty() && (message.back() == '\r' || message.back() == ' ')) {
    message.remove_suffix(1);
  }
  return message;
}

bool succeeded(const PGresult* result) noexcept {
  const ExecStatusType status = libpq().PQresultStatus(result);
  return status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK;
}

}  // namespace

Status io_error(std::string_view what, std::string_view libpq_message) {
  std::string_view line = first_line(libpq_message);
  if (line.empty()) line = "libpq gave no reason";
  std::string message = "PostgreSQL: ";
  message += what;
  message += ": ";
  message += line;
  return Status(Errc::io, std::move(message));
}

Status connection_error(std::string_view what, std::string_view libpq_message) {
  std::string_view line = first_line(libpq_message);
  // "connection to server on socket \"/run/x/.s.PGSQL.5432\" failed: " or "... at \"host\", port
  // 5432 failed: ": where it connected is the connection string's, which memkit never prints.
  if (line.starts_with("connection to server")) {
    const std::size_t failed = line.find(" failed: ");
    line = failed == std::string_view::npos ? std::string_view()
                                            : line.substr(failed + std::string_view(" failed: ").size());
  }
  for (std::string_view severity : {"FATAL:  ", "FATAL: ", "ERROR:  ", "ERROR: "}) {
    if (line.starts_with(severity)) line.remove_prefix(severity.size());
  }
  // What the cause quotes is a part of the connection string (a host, database or user name).
  std::string cause;
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') {
      quoted = !quoted;
      cause += quoted ? "\"\u2026" : "\"";
    } else if (!quoted) {
      cause += c;
    }
  }
  if (quoted) cause += '"';
  return io_error(what, cause.empty() ? std::string_view("the server could not be reached") : cause);
}

Result<Connection> Connection::open(const std::string& conninfo) {
  if (Result<const LibPq*> loaded = load_libpq(); !loaded) return loaded.status();
  char* parse_error = nullptr;
  PQconninfoOption* parsed = libpq().PQconninfoParse(conninfo.c_str(), &parse_error);
  if (parsed == nullptr) {
    if (parse_error == nullptr) return Status(Errc::out_of_memory, "PostgreSQL: out of memory");
    libpq().PQfreemem(parse_error);
    return Status(
        Errc::invalid_argument,
        "PostgreSQL: connecting: the connection string is not a valid libpq keyword/value "
        "string or URI");
  }
  libpq().PQconninfoFree(parsed);

  // `conninfo` goes in as an expanded dbname, so it may be a URI or a keyword/value string; the
  // keywords after it win over the same keywords inside it. memkit's text is UTF-8 whatever the
  // database's encoding; libpq converts.
  const char* const keywords[] = {"dbname", "fallback_application_name", "client_encoding",
                                  nullptr};
  const char* const values[] = {conninfo.c_str(), "memkit", "UTF8", nullptr};
  PGconn* raw = libpq().PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (raw == nullptr) return Status(Errc::out_of_memory, "PostgreSQL: out of memory");
  Connection connection(raw);
  libpq().PQsetNoticeProcessor(raw, ignore_notice, nullptr);
  if (libpq().PQstatus(raw) != CONNECTION_OK)
    return connection_error("connecting", libpq().PQerrorMessage(raw));
  return connection;
}

bool Connection::alive() {
  PGconn* conn = conn_.get();
  // Nothing is in flight between calls, so anything readable now is a message the server sent
  // on its own (a FATAL before it closed the connection) or the end of file itself. A few
  // rounds read both; an open, quiet connection stops at the first poll.
  for (int round = 0; round < 4 && libpq().PQstatus(conn) == CONNECTION_OK; ++round) {
    pollfd waiting{.fd = libpq().PQsocket(conn), .events = POLLIN, .revents = 0};
    if (::poll(&waiting, 1, 0) <= 0) break;
    if (libpq().PQconsumeInput(conn) == 0) break;  // end of file: libpq marks the connection bad
    while (PGnotify* note = libpq().PQnotifies(conn))
      libpq().PQfreemem(note);  // parses what was read
  }
  return libpq().PQstatus(conn) == CONNECTION_OK;
}

Status Connection::reconnect() {
  libpq().PQreset(conn_.get());
  if (libpq().PQstatus(conn_.get()) != CONNECTION_OK) {
    return connection_error("reconnecting", libpq().PQerrorMessage(conn_.get()));
  }
  return Status();
}

Result<PgResult> Connection::run(std::string_view what, const char* sql,
                                 std::initializer_list<const char*> params) {
  const std::vector<const char*> values(params);
  PgResult result(libpq().PQexecParams(conn_.get(), sql, static_cast<int>(values.size()), nullptr,
                                       values.data(), nullptr, nullptr, /*resultFormat=text*/ 0));
  if (result == nullptr) return io_error(what, libpq().PQerrorMessage(conn_.get()));
  if (!succeeded(result.get())) return io_error(what, libpq().PQresultErrorMessage(result.get()));
  ++successes_;
  return result;
}

Status Connection::run_script(std::string_view what, const char* sql) {
  const PgResult result(libpq().PQexec(conn_.get(), sql));
  if (result == nullptr) return io_error(what, libpq().PQerrorMessage(conn_.get()));
  if (!succeeded(result.get())) return io_error(what, libpq().PQresultErrorMessage(result.get()));
  ++successes_;
  return Status();
}

Status Connection::copy_in(std::string_view what, const char* copy_sql,
                           const std::function<bool(std::string&)>& produce) {
  PGconn* conn = conn_.get();
  {
    const PgResult started(libpq().PQexec(conn, copy_sql));
    if (started == nullptr) return io_error(what, libpq().PQerrorMessage(conn));
    if (libpq().PQresultStatus(started.get()) != PGRES_COPY_IN) {
      return io_error(what, libpq().PQresultErrorMessage(started.get()));
    }
  }
  std::string buffer;
  buffer.reserve(kCopyChunk + kCopyChunk / 4);
  bool sent = true;
  for (bool more = true; more && sent;) {
    buffer.clear();
    while (more && buffer.size() < kCopyChunk) more = produce(buffer);
    // PQputCopyData takes an int; a field is at most 1 GiB, so only a freak row comes near.
    if (!buffer.empty()) {
      sent = buffer.size() <= INT_MAX &&
             libpq().PQputCopyData(conn, buffer.data(), static_cast<int>(buffer.size())) == 1;
    }
  }
  // A failed send ends the COPY with an error, so the server stores none of it.
  if (libpq().PQputCopyEnd(conn, sent ? nullptr : "memkit could not send every row") != 1)
    sent = false;
  Status status;
  while (PGresult* raw = libpq().PQgetResult(conn)) {
    const PgResult result(raw);
    const ExecStatusType state = libpq().PQresultStatus(raw);
    if (state == PGRES_COPY_IN || state == PGRES_COPY_OUT) {
      // libpq is still in the COPY (the end could not be sent): it would hand this out forever.
      if (status.ok()) status = io_error(what, libpq().PQerrorMessage(conn));
      break;
    }
    if (state != PGRES_COMMAND_OK && status.ok()) {
      status = io_error(what, libpq().PQresultErrorMessage(raw));
    }
  }
  if (status.ok() && !sent) status = io_error(what, libpq().PQerrorMessage(conn));
  if (status.ok()) ++successes_;
  return status;
}

Transaction::~Transaction() {
  if (open_ && !connection_.lost()) {
    // Ends a failed transaction; the connection stays usable for the next call. When this fails
    // too, the connection is gone, and so is the transaction.
    (void)connection_.run("rolling back", "ROLLBACK");
  }
}

Status Transaction::begin(std::string_view what, const char* begin_sql) {
  Result<PgResult> begun = connection_.run(what, begin_sql);
  if (!begun) return begun.status();
  open_ = true;
  return Status();
}

Status Transaction::commit(std::string_view what) {
  Result<PgResult> committed = connection_.run(what, "COMMIT");
  open_ = false;  // committed, or rolled back by the server when COMMIT failed
  if (!committed) return committed.status();
  // COMMIT of a transaction the server had already aborted succeeds as "ROLLBACK".
  if (std::string_view(libpq().PQcmdStatus(committed->get())) != "COMMIT") {
    return io_error(what, "the server rolled the transaction back");
  }
  return Status();
}

}  // namespace memkit::detail::pg
