#pragma once
// srun --pty: task 0 on a pseudo-terminal of its own. srun puts its own
// terminal in raw mode and copies bytes both ways, so the task's terminal
// does the line editing and turns Ctrl-C and Ctrl-Z into signals for the
// task's foreground job, as a login would; window size changes follow.

namespace stint::cli {

class PseudoTerminal {
 public:
  /// Opens the pair; throws Errc::io.
  PseudoTerminal();
  ~PseudoTerminal();
  PseudoTerminal(const PseudoTerminal&) = delete;
  PseudoTerminal& operator=(const PseudoTerminal&) = delete;

  /// In the task's child, before exec: a new session whose controlling
  /// terminal is the pseudo-terminal, on the task's stdin, stdout and stderr.
  /// Returns false when that failed (errno set).
  bool attach_child() const;

  /// In srun, after the fork: raw mode on srun's own terminal (when stdin is
  /// one) and the window size copied; restored by the destructor.
  void start();
  int master() const { return m_master; }
  /// Copies what srun's stdin has to the task; false at its end.
  bool copy_input();
  /// Copies what the task wrote to srun's stdout; false once it is closed.
  bool copy_output();
  /// After SIGWINCH: the window's size again.
  void copy_window_size() const;

 private:
  int m_master = -1;
  char m_slave_path[128] = {};
  bool m_raw = false;
  unsigned char m_saved_termios[128] = {};  // struct termios, kept out of this header
};

/// Set by the SIGWINCH handler; cleared when the size has been copied.
extern volatile int g_window_changed;

}  // namespace stint::cli
