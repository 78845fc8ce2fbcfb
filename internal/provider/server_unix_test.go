//go:build unix

package provider

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// TestAccCtrlCStopsRead presses Ctrl-C, as a terminal does (SIGINT to the
// whole process group: Terraform and the provider it started), during a
// read under the real terraform plan and apply, with the built provider
// binary. Terraform sends StopProvider on plan, but none while apply
// computes its plan (1.11): there only the provider's own SIGINT handling
// (main.go) stops the read.
//
// The API answers two pages and holds the third until its client gives it
// up, so the read cannot end, nor get past page 3, but by being stopped,
// however slow the machine: a read that went on would hold Terraform until
// the hang limit. No time is measured.
func TestAccCtrlCStopsRead(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		t.Skip("no terraform: set TF_ACC_TERRAFORM_PATH or put terraform on PATH")
	}
	t.Parallel()
	dir := t.TempDir()
	cliConfig := filepath.Join(dir, "dev.tfrc")
	writeFile(t, cliConfig, DevOverridesCLIConfig(builtProviderDir(t)))

	for _, args := range [][]string{{"plan"}, {"apply", "-auto-approve"}} {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel()
			// 40 pages, one at a time.
			api := startThirdHeldSandbox(t, sandbox.Options{Seed: 91, Memberships: 395})
			work := filepath.Join(dir, args[0])
			writeFile(t, filepath.Join(work, "main.tf"), `
terraform {
  required_providers {
    joinit = { source = "`+RegistryAddress+`" }
  }
}
provider "joinit" {
  base_url                = "`+api.url+`"
  access_token            = "`+sandbox.DefaultToken+`"
  max_concurrent_requests = 1
}
data "joinit_memberships" "all" {
  page_size = 10
}
output "count" { value = length(data.joinit_memberships.all.ids) }
`)
			cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), append(args, "-input=false", "-no-color")...)
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its own group, as a terminal's foreground job
			var out testutil.SyncBuffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { killGroup(cmd) }) // on a failure below; nothing once it has exited
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()

			select {
			case <-api.thirdArrived: // two pages read, the third held
			case err := <-exited:
				t.Fatalf("terraform %s ended before reading: %v\n%s", args[0], err, out.String())
			case <-time.After(hangLimit):
				t.Fatalf("terraform %s did not get to page 3 within %s\n%s", args[0], hangLimit, out.String())
			}
			if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			// Page 3 is never answered: only a stopped read lets Terraform
			// end. The limit is on a hang, not on speed.
			select {
			case <-exited:
			case <-time.After(hangLimit):
				t.Fatalf("terraform %s still running %s after Ctrl-C: the read went on\n%s", args[0], hangLimit, out.String())
			}
			select {
			case <-api.thirdAbandoned:
			case <-time.After(hangLimit):
				t.Fatalf("terraform %s exited, but page 3's request was never let go\n%s", args[0], out.String())
			}
			if n := api.requests.Load(); n != 3 {
				t.Errorf("the API got %d requests, want 3: a request after the held page 3, which the stopped read should not have sent", n)
			}
			if cmd.ProcessState.Success() {
				t.Errorf("terraform %s succeeded after Ctrl-C\n%s", args[0], out.String())
			}
			if said := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(said, interruptedDetail) {
				t.Errorf("terraform %s does not say the read was interrupted (%q):\n%s", args[0], interruptedDetail, out.String())
			}
		})
	}
}

// thirdHeldSandbox serves a sandbox's answers to the first two requests and
// holds the third until its client gives it up.
type thirdHeldSandbox struct {
	url            string
	thirdArrived   chan struct{} // closed when the third request arrives
	thirdAbandoned chan struct{} // closed when its client has given it up
	requests       atomic.Int32
}

// startThirdHeldSandbox serves the sandbox of opts (its data and answers;
// sandbox.StartForTest's server cannot hold one request) in front of a
// server that holds the third request.
func startThirdHeldSandbox(t *testing.T, opts sandbox.Options) *thirdHeldSandbox {
	t.Helper()
	sb := sandbox.New(opts)
	r := &thirdHeldSandbox{thirdArrived: make(chan struct{}), thirdAbandoned: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if r.requests.Add(1) == 3 {
			close(r.thirdArrived)
			<-req.Context().Done() // the client went, or the server closes
			close(r.thirdAbandoned)
			return
		}
		sb.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	r.url = srv.URL
	return r
}

// killGroup ends Terraform and the provider it started.
func killGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
