#!/bin/sh
# An example agent for the local server's command executor:
#
#   npx agent-runs-server --executor command --command "sh $PWD/examples/agents/example-agent.sh"
#
# (at the clone's root; the path must be absolute: the agent runs in the run's own directory)
#
# It shows every part of the protocol; replace the "work" with a real agent (an AI
# coding assistant's command line, a script). It needs only a POSIX shell.
set -eu

# The prompt arrives on stdin.
prompt=$(cat)

# The run's working directory is the current directory; it is kept across follow-ups.
echo "execution $AGENT_RUNS_EXECUTION of run $AGENT_RUNS_RUN_ID in $(pwd)"

# When this execution answers follow-ups, their text is in AGENT_RUNS_FOLLOWUP_FILE
# (empty otherwise). The whole conversation so far, one JSON object a line, is in
# AGENT_RUNS_CONVERSATION_FILE.
if [ -s "$AGENT_RUNS_FOLLOWUP_FILE" ]; then
  task=$(cat "$AGENT_RUNS_FOLLOWUP_FILE")
  echo "answering a follow-up: $task"
else
  task=$prompt
  echo "working on: $task"
fi
echo "the conversation has $(wc -l < "$AGENT_RUNS_CONVERSATION_FILE") message(s)"

# Files given with the run are in AGENT_RUNS_ATTACHMENTS_DIR.
for file in "$AGENT_RUNS_ATTACHMENTS_DIR"/*; do
  [ -f "$file" ] && echo "attachment: $(basename "$file")"
done

# The "work": a note in the working directory, appended on each execution.
echo "$task" >> work-log.txt

# Files left in AGENT_RUNS_ARTIFACTS_DIR become FILE artifacts (images SCREENSHOT).
cp work-log.txt "$AGENT_RUNS_ARTIFACTS_DIR/work-log.txt"

# JSON lines appended to AGENT_RUNS_REPORT_FILE add artifacts and the result message.
# (A real agent would build these with a JSON tool such as jq; these hold no user text.
# printf, not echo: some shells' echo turns the \n inside the JSON into a line break.)
branch="agent/$AGENT_RUNS_RUN_ID"
{
  printf '{"type":"PULL_REQUEST","url":"https://github.com/example/repo/pull/1","branch":"%s"}\n' "$branch"
  printf '%s\n' '{"type":"PLAN","title":"What was done","content":"1. Read the task.\n2. Wrote work-log.txt."}'
  printf '{"type":"RESULT","message":"Done: execution %s wrote work-log.txt"}\n' "$AGENT_RUNS_EXECUTION"
} >> "$AGENT_RUNS_REPORT_FILE"

# Follow-ups sent while this execution runs are appended to AGENT_RUNS_INBOX_FILE as
# JSON lines ({"id","message","mode","created_at"}). An agent that handles one reports
#   {"type":"FOLLOWUP_TAKEN","id":"<id>"}
# and any it leaves are answered by a next execution. This one leaves them.

# Exit 0: SUCCEEDED; anything else: FAILED.
exit 0
