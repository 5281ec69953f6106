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
 * (perl-base is essential on Debian and its derivatives; only its Socket module is loaded):
 * a process per connection, the agent's exit noticed at once through a pipe its SIGCHLD
 * handler writes.
 */
const PERL_BRIDGE = `
use strict; use Socket;
my ($path, $port, @cmd) = @ARGV;
socket(my $listen, PF_INET, SOCK_STREAM, 0) or die "agent-runs proxy bridge: socket: $!\\n";
setsockopt($listen, SOL_SOCKET, SO_REUSEADDR, 1);
bind($listen, pack_sockaddr_in($port, inet_aton('127.0.0.1'))) && listen($listen, 128)
  or die "agent-runs proxy bridge: cannot listen on 127.0.0.1:$port: $!\\n";
pipe(my $wake, my $waker) or die "agent-runs proxy bridge: pipe: $!\\n";
$SIG{CHLD} = sub { syswrite($waker, 'x') };
my $agent = fork() // die "agent-runs proxy bridge: fork: $!\\n";
if (!$agent) {
  $SIG{CHLD} = 'DEFAULT';
  exec { $cmd[0] } @cmd;
  print STDERR "$cmd[0]: $!\\n";
  exit 127;
}
for my $name (qw(TERM INT HUP)) { $SIG{$name} = sub { kill $name, $agent } }
sub relay {
  my ($a, $b) = @_;
  my %open = (fileno($a) => [$a, $b], fileno($b) => [$b, $a]);
  while (%open) {
    my $bits = '';
    vec($bits, $_, 1) = 1 for keys %open;
    my $n = select(my $ready = $bits, undef, undef, undef);
    if ($n < 0) { next if $! == 4; return }
    for my $fd (keys %open) {
      next unless vec($ready, $fd, 1);
      my ($from, $to) = @{$open{$fd}};
      my $got = sysread($from, my $buffer, 65536);
      if (!$got) { delete $open{$fd}; shutdown($to, 1); next }
      for (my $at = 0; $at < $got;) { my $w = syswrite($to, $buffer, $got - $at, $at); return unless defined $w; $at += $w }
    }
  }
}
while (1) {
  while ((my $done = waitpid(-1, 1)) > 0) {
    next unless $done == $agent;
    exit(($? & 127) ? 128 + ($? & 127) : $? >> 8);
  }
  my $bits = '';
  vec($bits, fileno($_), 1) = 1 for ($listen, $wake);
  next if select(my $ready = $bits, undef, undef, 1) <= 0;
  sysread($wake, my $drop, 64) if vec($ready, fileno($wake), 1);
  next unless vec($ready, fileno($listen), 1) && accept(my $client, $listen);
  my $pid = fork();
  if (defined $pid && $pid == 0) {
    $SIG{CHLD} = 'DEFAULT'; $SIG{PIPE} = 'IGNORE';
    socket(my $upstream, PF_UNIX, SOCK_STREAM, 0) or exit 1;
    connect($upstream, pack_sockaddr_un($path)) or exit 1;
    relay($client, $upstream);
    exit 0;
  }
  close $client;
}`;

/** Perl where the system has it (the sandbox shows /usr), else the server's own Node.js. */
const PERL = ['/usr/bin/perl', '/bin/perl'].find((path) => existsSync(path));

/** The command and arguments that start the bridge, then `command args` behind it. */
export function behindBridge(command: string, args: readonly string[]): { command: string; args: string[] } {
  if (PERL) return { command: PERL, args: ['-e', PERL_BRIDGE, '--', SANDBOX_PROXY_SOCKET, String(BRIDGE_PORT), command, ...args] };
  return { command: process.execPath, args: ['-e', BRIDGE, '--', SANDBOX_PROXY_SOCKET, String(BRIDGE_PORT), command, ...args] };
}
