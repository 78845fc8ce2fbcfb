package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/buildinfo"
)

// The environment variables the relay reads. Secrets come from the
// environment only, never from flags, which other users of a machine can
// read in its process list.
const (
	envSecret      = "JOINIT_RELAY_SECRET"
	envPort        = "PORT"
	envGitHubToken = "GITHUB_TOKEN"
	envTFEToken    = "TFE_TOKEN"
)

// minSecretLength is the shortest secret accepted: the URL is the only
// thing that tells the service's requests from anyone else's
// (API.md#no-signature).
const minSecretLength = 32

// errVersionShown ends run after -version, with exit 0.
var errVersionShown = errors.New("version shown")

const usageText = `joinit-relay receives the Join It service's webhooks and starts the same sync
run the schedule starts, so a membership change reaches SSO, chat or GitHub
within minutes.

The service signs nothing, so the relay trusts no payload: each accepted
webhook only records "a run is owed" (fsynced in -state-dir before the 202).
The run starts after -quiet-period without a new event, or -max-delay after
the first, whichever comes first; a burst of events costs one run. The run
re-reads every membership through the provider: a forged request costs at
most one extra run, never a wrong change. A burst costs one run, or two when
it straddles one.

Receiver URL (configure it in Join It: Automations, then Webhooks, one
automation per trigger, all on this URL):

    POST https://<your public host>/hooks/<JOINIT_RELAY_SECRET>

Answers: 202 accepted (or ignored: an event type outside -events), 400 not a
JSON object, 403 another -organization-id, 404 any other path, 405 another
method, 413 a body over 1 MiB, 503 the owed run could not be recorded.
GET /healthz answers 200 with whether a run is owed and when the last start
succeeded; GET /metrics, the same and the webhooks' counts, in Prometheus'
text format (on -metrics-listen instead, when set). Relays may share one
-state-dir (a rolling update): a webhook any of them accepts is served by one
run that starts after it, and their starts never overlap.

Environment:
    JOINIT_RELAY_SECRET  the path secret, 32 characters or more of A-Z a-z 0-9 - _ . ~
                         (openssl rand -hex 32); required, never logged
    PORT                 when set, the default of -listen is :$PORT
    GITHUB_TOKEN         with -github-workflow: a token that may run the workflow
                         (fine-grained: Actions read and write)
    TFE_TOKEN            with -tfe-workspace: a user or team token (organization
                         tokens cannot create runs)

Exactly one backend starts the run: -run-command, -github-workflow or
-tfe-workspace. A failed start is retried with backoff, honouring Retry-After
and rate-limit reset headers for an hour at most (a longer wait asked is taken
as an hour), until one succeeds; the owed run is never dropped. Each failed
start's log line says when the next comes (next_start), as /healthz does.

Usage: joinit-relay -state-dir DIR (-run-command CMD | -github-workflow W | -tfe-workspace ID) [flags]

Flags:
`

// config is the parsed command line and environment.
type config struct {
	listen         string
	metricsListen  string // "": /metrics on listen
	stateDir       string
	organizationID string
	events         map[string]bool
	quietPeriod    time.Duration
	maxDelay       time.Duration
	secret         string
	backend        backend
}

// backendFlags are the flags of the three backends, before one is chosen.
type backendFlags struct {
	runCommand     string
	runTimeout     time.Duration
	githubWorkflow string
	githubAPI      string
	tfeWorkspace   string
	tfeAddress     string
}

func parseConfig(args []string, getenv func(string) string, stdout io.Writer) (*config, error) {
	c := &config{}
	var b backendFlags
	fs := flag.NewFlagSet("joinit-relay", flag.ContinueOnError)
	// -h prints the usage to standard output (below); a mistake is one
	// line on standard error, from run, not the usage again.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defaultListen := ":8080"
	if p := getenv(envPort); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 0 || n > 65535 {
			return nil, fmt.Errorf("%s %q is not a port number (it sets -listen's default to :$%s)", envPort, logSafe(p), envPort)
		}
		defaultListen = ":" + p
	}
	fs.StringVar(&c.listen, "listen", defaultListen, "`address` to listen on (default :8080, or :$PORT when PORT is set); serve it behind HTTPS")
	fs.StringVar(&c.metricsListen, "metrics-listen", "", "serve GET /metrics (and /healthz) on this `address` too, and /metrics no longer on -listen, whose port is public wherever the webhook is (e.g. 127.0.0.1:9090)")
	fs.StringVar(&c.stateDir, "state-dir", "", "`directory` where an owed run is recorded, kept across restarts (required)")
	fs.StringVar(&c.organizationID, "organization-id", "", "refuse (403) a webhook whose organization_id is not this `id` (empty: any)")
	events := fs.String("events", strings.Join(membershipEvents, ","), "comma-separated webhook_event_type `values` that owe a run; others are answered 202 and ignored")
	durationVar(fs, &c.quietPeriod, "quiet-period", 30*time.Second, "start the owed run after this long without a new event")
	durationVar(fs, &c.maxDelay, "max-delay", 5*time.Minute, "start the owed run at the latest this long after its first event, even while events keep coming")
	fs.StringVar(&b.runCommand, "run-command", "", "backend: run this `command` through sh -c, its output to -state-dir/last-run.log; a non-zero exit is a failed start")
	durationVar(fs, &b.runTimeout, "run-timeout", 30*time.Minute, "with -run-command: interrupt the command after this long (a failed start)")
	fs.StringVar(&b.githubWorkflow, "github-workflow", "", "backend: dispatch this workflow, as `OWNER/REPO/WORKFLOW_FILE@REF`, with GITHUB_TOKEN")
	fs.StringVar(&b.githubAPI, "github-api-url", "https://api.github.com", "with -github-workflow: the GitHub API's `URL` (GitHub Enterprise Server: https://HOST/api/v3)")
	fs.StringVar(&b.tfeWorkspace, "tfe-workspace", "", "backend: queue a run in this HCP Terraform or Terraform Enterprise workspace `id` (ws-…), with TFE_TOKEN")
	fs.StringVar(&b.tfeAddress, "tfe-address", "https://app.terraform.io", "with -tfe-workspace: the `URL` of HCP Terraform or Terraform Enterprise")
	showVersion := fs.Bool("version", false, "print the version and exit")

	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fmt.Fprint(stdout, usageText)
			fs.PrintDefaults()
		}
		return nil, err
	}
	if *showVersion {
		fmt.Fprintln(stdout, buildinfo.Line("joinit-relay", version))
		return nil, errVersionShown
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (see -h)", fs.Arg(0))
	}
	if err := checkListen("-listen", c.listen); err != nil {
		return nil, err
	}
	if c.metricsListen != "" {
		if err := checkListen("-metrics-listen", c.metricsListen); err != nil {
			return nil, err
		}
	}
	if c.stateDir == "" {
		return nil, errors.New("-state-dir is required: the directory where an owed run is recorded before a webhook is answered")
	}
	if c.quietPeriod <= 0 || c.maxDelay <= 0 {
		return nil, errors.New("-quiet-period and -max-delay must be above 0")
	}
	if c.quietPeriod > c.maxDelay {
		return nil, fmt.Errorf("-quiet-period %s is longer than -max-delay %s, so every run would wait the maximum delay: set -max-delay to %s or more, or a shorter -quiet-period", c.quietPeriod, c.maxDelay, c.quietPeriod)
	}
	var err error
	if c.events, err = eventSet(*events); err != nil {
		return nil, err
	}
	if c.secret, err = readSecret(getenv); err != nil {
		return nil, err
	}
	if c.backend, err = b.choose(getenv, c.stateDir); err != nil {
		return nil, err
	}
	return c, nil
}

// durationVar defines a duration flag whose error says what to write:
// "-quiet-period 5" means seconds to most, and Go's parser only says
// "missing unit".
func durationVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Func(name, usage+" (a `duration`; default "+value.String()+")", func(v string) error {
		d, err := time.ParseDuration(v)
		if err == nil {
			*p = d
			return nil
		}
		if _, numErr := strconv.ParseFloat(v, 64); numErr == nil {
			return fmt.Errorf("%s has no unit: write %ss (seconds) or %sm (minutes)", v, v, v)
		}
		return fmt.Errorf("%q is not a duration: write it as 30s, 5m or 1h30m", logSafe(v))
	})
}

// checkListen checks a listen flag's form, HOST:PORT, before the relay
// opens its state: a mistake is named here, not by the listener after the
// start.
func checkListen(flagName, addr string) error {
	_, port, err := net.SplitHostPort(addr)
	n, perr := strconv.Atoi(port)
	if err != nil || perr != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%s %q is not HOST:PORT: write 127.0.0.1:8080 (this machine only, behind a proxy) or :8080 (every interface)", flagName, logSafe(addr))
	}
	return nil
}

// secretChars are the characters a secret may hold: URL path characters
// that need no escaping, so the URL configured in Join It is the secret as
// written.
var secretChars = regexp.MustCompile(`^[A-Za-z0-9._~-]+$`)

// readSecret reads and checks JOINIT_RELAY_SECRET; its messages never quote it.
func readSecret(getenv func(string) string) (string, error) {
	s := getenv(envSecret)
	switch {
	case s == "":
		return "", errors.New(envSecret + " is not set: set it to 32 or more random characters (openssl rand -hex 32); the receiver URL is /hooks/<secret>")
	case len(s) < minSecretLength:
		return "", fmt.Errorf("%s is %d characters; it must be %d or more (openssl rand -hex 32)", envSecret, len(s), minSecretLength)
	case !secretChars.MatchString(s):
		return "", errors.New(envSecret + " holds a character other than A-Z a-z 0-9 - _ . ~ (a trailing newline?); such characters change when written in a URL")
	}
	return s, nil
}

// choose checks that exactly one backend is named and builds it.
func (b backendFlags) choose(getenv func(string) string, stateDir string) (backend, error) {
	named := 0
	for _, v := range []string{b.runCommand, b.githubWorkflow, b.tfeWorkspace} {
		if v != "" {
			named++
		}
	}
	if named != 1 {
		return nil, errors.New("name exactly one backend: -run-command, -github-workflow or -tfe-workspace")
	}
	switch {
	case b.runCommand != "":
		if b.runTimeout <= 0 {
			return nil, errors.New("-run-timeout must be above 0")
		}
		if _, err := exec.LookPath("sh"); err != nil {
			return nil, errors.New("-run-command runs its command through sh, which this system lacks (the relay's container image has no shell): use -github-workflow or -tfe-workspace")
		}
		return &commandBackend{command: b.runCommand, timeout: b.runTimeout, stateDir: stateDir, env: environWithout(os.Environ(), envSecret)}, nil
	case b.githubWorkflow != "":
		return newGitHubBackend(b.githubWorkflow, b.githubAPI, getenv(envGitHubToken))
	default:
		return newTFEBackend(b.tfeWorkspace, b.tfeAddress, getenv(envTFEToken))
	}
}
