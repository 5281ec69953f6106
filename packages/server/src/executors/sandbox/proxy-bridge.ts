import { existsSync } from 'node:fs';
import { BRIDGE_PORT } from './proxy-env.js';
import { SANDBOX_PROXY_SOCKET } from './bwrap-args.js';

/**
 * Runs first in a sandbox under an allow-list (as `node -e`): listens on the sandbox's own
 * loopback, where HTTP(S)_PROXY points, forwards each connection to the server's filtering
 * proxy through the bound Unix socket, and only then starts the agent, whose exit it passes on.
 */
const BRIDGE = `
const net = require('node:net'), { spawn } = require('node:child_process');
const [socket, port, command, ...args] = process.argv.slice(1);
const server = net.createServer((c) => {
  const u = net.connect(socket);
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  c.pipe(u).pipe(c);
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit' });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => { process.stderr.write(String(e.message) + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(signal ? 128 + (require('node:os').constants.signals[signal] || 1) : code));
});`;

/**
 * The same bridge in Perl, which starts in a few milliseconds where Node.js takes tens
 * (perl-base is essential on Debian and its derivatives): a process per connection, the
 * agent's exit noticed at once through a pipe its SIGCHLD handler writes.
 */
const PERL_BRIDGE = `
use strict; use IO::Socket::INET; use IO::Socket::UNIX; use IO::Select; use POSIX ();
my ($path, $port, @cmd) = @ARGV;
my $listen = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => $port, Listen => 128, ReuseAddr => 1, Proto => 'tcp')
  or die "agent-runs proxy bridge: cannot listen on 127.0.0.1:$port: $!\\n";
pipe(my $wake, my $waker) or die "agent-runs proxy bridge: pipe: $!\\n";
$waker->autoflush(1);
$SIG{CHLD} = sub { syswrite($waker, 'x') };
my $agent = fork() // die "agent-runs proxy bridge: fork: $!\\n";
if (!$agent) {
  close $listen; close $wake; close $waker; $SIG{CHLD} = 'DEFAULT';
  exec { $cmd[0] } @cmd or do { print STDERR "$cmd[0]: $!\\n"; POSIX::_exit(127) };
}
for my $name (qw(TERM INT HUP)) { $SIG{$name} = sub { kill $name, $agent } }
sub relay {
  my ($a, $b) = @_;
  my $select = IO::Select->new($a, $b);
  my $buffer;
  while ($select->count) {
    for my $from ($select->can_read) {
      my $to = $from == $a ? $b : $a;
      my $n = sysread($from, $buffer, 65536);
      if (!$n) { $select->remove($from); shutdown($to, 1); next }
      for (my $at = 0; $at < $n;) { my $w = syswrite($to, $buffer, $n - $at, $at); return unless defined $w; $at += $w }
    }
  }
}
my $select = IO::Select->new($listen, $wake);
while (1) {
  while ((my $done = waitpid(-1, POSIX::WNOHANG())) > 0) {
    next unless $done == $agent;
    my $status = $?;
    exit(($status & 127) ? 128 + ($status & 127) : $status >> 8);
  }
  for my $ready ($select->can_read(1)) {
    if ($ready == $wake) { sysread($wake, my $drop, 64); next }
    my $client = $listen->accept or next;
    my $pid = fork();
    if (defined $pid && $pid == 0) {
      $SIG{CHLD} = 'DEFAULT'; close $listen;
      my $upstream = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $path) or POSIX::_exit(1);
      relay($client, $upstream);
      POSIX::_exit(0);
    }
    close $client;
  }
}`;

/** Perl where the system has it (the sandbox shows /usr), else the server's own Node.js. */
const PERL = ['/usr/bin/perl', '/bin/perl'].find((path) => existsSync(path));

/** The command and arguments that start the bridge, then `command args` behind it. */
export function behindBridge(command: string, args: readonly string[]): { command: string; args: string[] } {
  if (PERL) return { command: PERL, args: ['-e', PERL_BRIDGE, '--', SANDBOX_PROXY_SOCKET, String(BRIDGE_PORT), command, ...args] };
  return { command: process.execPath, args: ['-e', BRIDGE, '--', SANDBOX_PROXY_SOCKET, String(BRIDGE_PORT), command, ...args] };
}
