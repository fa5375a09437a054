// The structs behind memkit.h's opaque handles (STYLE C2): defined here and nowhere else.
#pragma once

#include <string>
#include <vector>

#include "commands/commands.hpp"
#include "memkit.h"
#include "memkit/markdown.hpp"

// A project's memory folder: what mk_workspace_open checked, passed to every command.
struct mk_workspace {
  mk_layout layout = MK_LAYOUT_CUSTODIAN;
  std::string project_root;  // absolute; the agent root for MemoryBox, the store for curated
  std::string memory_dir;    // "" for the layout's default
  double lock_timeout_seconds = 10.0;
};

// One command's reply, with what the typed accessors read prepared once.
struct mk_result {
  memkit::CommandReply reply;
  std::string plan_id;                 // "" when the reply has no plan
  std::vector<std::string> row_paths;  // the status rows' paths, kept for mk_budget_row.path
  std::vector<mk_budget_row> rows;
};

struct mk_document {
  memkit::Document doc;
};
