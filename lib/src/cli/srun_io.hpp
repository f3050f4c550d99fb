#pragma once
// A step's standard I/O as srun carries it, and how sattach reaches it.
//
// As Slurm's tasks write to slurmstepd's pipes, srun's tasks write to pipes
// srun reads: srun passes the bytes on to its own stdout and stderr (as they
// come, or as labelled lines with -l) and feeds the tasks' stdin pipes from
// its own stdin. For the step's life srun also listens on a Unix socket in
// Linux's abstract namespace, named after the cluster's state directory and
// the step: each sattach attached there gets the step's layout, then a copy
// of every task's output and each task's exit, and may send input to the
// tasks. Nothing a client does may hold up srun or the tasks: a client whose
// unsent output grows too large is dropped.
//
// Both directions carry frames: a 9-byte header (task id, kind, payload
// length; little-endian) and the payload.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <poll.h>

#include <stint/model.hpp>

namespace stint::cli {

enum class FrameKind : std::uint8_t {
  input = 0,        ///< client to srun: bytes for a task's stdin; empty: its end
  task_stdout = 1,  ///< srun to client: what a task wrote on its stdout
  task_stderr = 2,  ///< srun to client: what a task wrote on its stderr
  layout = 3,       ///< srun to client, first: the step's layout (encode_layout)
  task_end = 4,     ///< srun to client: a task has ended (encode_task_end)
};

/// An input frame's task id for every task that reads its stdin.
inline constexpr std::uint32_t k_every_task = 0xffffffffU;
inline constexpr std::size_t k_frame_header_size = 9;
/// The largest payload a frame may carry; a peer sending more is dropped.
inline constexpr std::uint32_t k_max_frame_payload = 1U << 20;

struct Frame {
  std::uint32_t task = 0;
  FrameKind kind = FrameKind::input;
  std::string payload;
};

std::string encode_frame(std::uint32_t task, FrameKind kind, std::string_view payload);

/// Takes the first whole frame off the front of `buffer`: nullopt while the
/// buffer holds none yet. Sets `bad` when the next frame cannot be one (a
/// payload over k_max_frame_payload, an unknown kind).
std::optional<Frame> take_frame(std::string& buffer, bool& bad);

/// Where the tasks of a step run, as sattach --layout prints it.
struct AttachLayout {
  struct Node {
    std::string name;
    std::vector<std::uint32_t> tasks;  ///< task ids, in order
  };
  std::uint32_t task_count = 0;
  std::vector<Node> nodes;
};

std::string encode_layout(const AttachLayout& layout);
std::optional<AttachLayout> decode_layout(std::string_view payload);

struct TaskEnd {
  int exit_status = 0;
  int exit_signal = 0;
};
std::string encode_task_end(const TaskEnd& end);
std::optional<TaskEnd> decode_task_end(std::string_view payload);

/// The abstract socket name of step `job`.`step` of the cluster whose state
/// directory is `state_dir` (without the leading NUL): a stable hash of the
/// directory keeps clusters on one machine apart.
std::string step_io_socket_name(const std::string& state_dir, JobId job, std::uint32_t step);

/// A connected socket to the abstract name, close-on-exec; -1 with errno set.
int connect_step_io(const std::string& name);

/// srun's half: the tasks' pipes, srun's own stdin and the attached clients,
/// driven from srun's poll loop.
class StepIo {
 public:
  /// `label`: -l, output passed on as "T: line" lines. `line_buffered`
  /// (all but -u): each task's output passed on in whole lines, as
  /// slurmstepd buffers it, so that tasks writing to one file never split
  /// each other's lines.
  explicit StepIo(bool label, bool line_buffered = true);
  ~StepIo();
  StepIo(const StepIo&) = delete;
  StepIo& operator=(const StepIo&) = delete;

  /// Listens on `name` for sattach; false when the name cannot be had (errno
  /// set), and the step runs without it.
  bool listen(const std::string& name, const AttachLayout& layout);
  /// A task's stdout or stderr: srun reads `read_fd` (and owns it) and writes
  /// what comes to `dest_fd`; `to_clients`: attached clients get a copy
  /// (output srun passes on to its own stdout and stderr).
  void add_output(std::uint32_t task, FrameKind stream, int read_fd, int dest_fd, bool to_clients);
  /// A task's stdin: srun writes `write_fd` (and owns it).
  void add_input(std::uint32_t task, int write_fd);

  /// Appends what to wait for to `fds`; handle() reads the same entries.
  void add_poll_fds(std::vector<pollfd>& fds);
  void handle(const std::vector<pollfd>& fds);

  /// Tells the clients that a task has ended, after what its pipes hold.
  void task_ended(std::uint32_t task, const TaskEnd& end);
  /// Whether a task's output may still come.
  bool output_open() const;
  /// Every task has ended: takes what their pipes hold now and closes them
  /// (a task's own children may keep them open).
  void drain_output();
  /// The step is over: the tasks' stdin closes, no client is taken any more,
  /// the clients get up to `grace_ms` to take what is still theirs, then
  /// their connections close, which ends their sattach.
  void finish(int grace_ms);

 private:
  struct Output {
    std::uint32_t task = 0;
    FrameKind stream = FrameKind::task_stdout;
    int fd = -1;
    int dest = -1;
    bool to_clients = false;
    std::string partial;  ///< with -l: the line begun
  };
  struct Input {
    std::uint32_t task = 0;
    int fd = -1;
    std::string pending;
    bool closing = false;  ///< close once `pending` is written
  };
  struct Client {
    int fd = -1;
    std::string received;
    std::string unsent;
  };
  enum class Slot : std::uint8_t { output, input, own_stdin, listener, client };

  bool read_output(Output& o);
  void close_output(Output& o);
  void pass_on(Output& o, std::string_view bytes);
  void flush_input(Input& in);
  void close_input(Input& in);
  void read_own_stdin();
  void deliver(std::uint32_t task, std::string_view bytes);
  void accept_client();
  void read_client(Client& c);
  void flush_client(Client& c);
  void drop_client(Client& c);
  void broadcast(std::uint32_t task, FrameKind kind, std::string_view payload);
  bool input_backlogged() const;
  bool any_input_open() const;

  bool m_label = false;
  bool m_line_buffered = true;
  int m_listener = -1;
  std::string m_layout_frame;
  bool m_own_stdin_open = true;
  std::vector<Output> m_outputs;
  std::vector<Input> m_inputs;
  std::vector<Client> m_clients;
  /// What each pollfd from add_poll_fds is: its kind and index.
  std::vector<std::pair<Slot, std::size_t>> m_slots;
  std::size_t m_first_fd = 0;
};

}  // namespace stint::cli
