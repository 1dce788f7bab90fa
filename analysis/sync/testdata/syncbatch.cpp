// syncbatch: runs many syncoracle cases in one process, for bagclock's
// differential test of analysis/sync (10,000 streams in one process instead
// of 10,000 processes). It compiles ../shared/peers/sync-oracle's
// syncoracle.cpp unchanged, with its main() renamed, and calls that main
// once per case: each case is written to a file and run with --drops.
//
// Input: cases, each a line {"case":N} followed by the config line and the
// events. Output: per case the {"case":N} line, syncoracle's own output, and
// {"rc":R} with its exit status (die() exits the whole batch instead).
#define main syncoracle_main
#include "syncoracle.cpp"
#undef main

int main(int argc, char** argv) {
  std::string path = argc > 1 ? argv[1] : "syncbatch-case.jsonl";
  std::string line, body, head;
  auto flush = [&]() {
    if (head.empty()) return;
    {
      std::ofstream f(path);
      f << body;
    }
    std::cout << head << "\n";
    char a0[] = "syncoracle", a1[] = "--drops";
    std::vector<char> a2(path.begin(), path.end());
    a2.push_back('\0');
    char* args[] = {a0, a1, a2.data(), nullptr};
    int rc = syncoracle_main(3, args);
    std::cout << "{\"rc\":" << rc << "}\n" << std::flush;
    body.clear();
  };
  while (std::getline(std::cin, line)) {
    if (line.rfind("{\"case\"", 0) == 0) {
      flush();
      head = line;
      continue;
    }
    body += line;
    body += '\n';
  }
  flush();
  return 0;
}
