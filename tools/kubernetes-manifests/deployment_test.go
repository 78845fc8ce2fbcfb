package manifests

import (
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
	psaapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
)

// relayContainer is the pod's one container, the relay.
func relayContainer(t *testing.T, d *appsv1.Deployment) *corev1.Container {
	t.Helper()
	cs := d.Spec.Template.Spec.Containers
	if len(cs) != 1 {
		t.Fatalf("Deployment %s: %d containers, want 1 (the relay)", d.Name, len(cs))
	}
	return &cs[0]
}

// containerPort resolves a port given by name or number to the container's
// port number; 0 when it names no port of the container.
func containerPort(c *corev1.Container, p intstr.IntOrString) int32 {
	for _, cp := range c.Ports {
		if (p.Type == intstr.String && cp.Name == p.StrVal) || (p.Type == intstr.Int && cp.ContainerPort == p.IntVal) {
			return cp.ContainerPort
		}
	}
	return 0
}

// portNamed is the container's port of that name; 0 when there is none.
func portNamed(c *corev1.Container, name string) int32 {
	return containerPort(c, intstr.FromString(name))
}

// flagValue is the value of -name (or --name) in args, as Go's flag
// package reads it: -name=value or -name value; ok says it is there.
func flagValue(args []string, name string) (value string, ok bool) {
	for i, a := range args {
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if v, found := strings.CutPrefix(a, name+"="); found {
			value, ok = v, true
		} else if a == name && i+1 < len(args) {
			value, ok = args[i+1], true
		}
	}
	return value, ok
}

// metricsPort is the port -metrics-listen names, checked: every interface
// (another pod scrapes it), not the webhook's port.
func metricsPort(t *testing.T, d *appsv1.Deployment, c *corev1.Container) int32 {
	t.Helper()
	where := "Deployment " + d.Name + ": container " + c.Name
	addr, ok := flagValue(c.Args, metricsFlag)
	if !ok {
		t.Errorf("%s: args have no -%s: /metrics would be served on the webhook's port, which the Service and the Ingress expose", where, metricsFlag)
		return 0
	}
	host, p, err := net.SplitHostPort(addr)
	n, perr := strconv.Atoi(p)
	if err != nil || perr != nil || n <= 0 || n > 65535 {
		t.Errorf("%s: -%s %q is not HOST:PORT", where, metricsFlag, addr)
		return 0
	}
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
		t.Errorf("%s: -%s %q listens on loopback, which Prometheus in another pod cannot reach: use :%d", where, metricsFlag, addr, n)
	}
	if n == webhookPort {
		t.Errorf("%s: -%s %q is the webhook's port: /metrics must have a port of its own", where, metricsFlag, addr)
	}
	if got := portNamed(c, "metrics"); got != int32(n) {
		t.Errorf("%s: the container port named metrics is %d, want -%s's %d (PodMonitor and NetworkPolicy name it)", where, got, metricsFlag, n)
	}
	return int32(n)
}

func checkDeployment(t *testing.T, d *appsv1.Deployment, objs []object) {
	where := "Deployment " + d.Name
	spec := &d.Spec.Template.Spec
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 1 {
		t.Errorf("%s: replicas must be 1", where)
	}
	if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
		t.Errorf("%s: automountServiceAccountToken must be false: the relay calls no Kubernetes API", where)
	}
	if g := spec.TerminationGracePeriodSeconds; g == nil || *g < minGrace {
		t.Errorf("%s: terminationGracePeriodSeconds must be at least %d (the guide's stop grace period; Kubernetes' default is 30)", where, minGrace)
	}

	psc := spec.SecurityContext
	if psc == nil {
		t.Fatalf("%s: the pod has no securityContext", where)
	}
	if psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
		t.Errorf("%s: pod securityContext.runAsNonRoot must be true", where)
	}
	for _, id := range []struct {
		field string
		v     *int64
	}{{"runAsUser", psc.RunAsUser}, {"runAsGroup", psc.RunAsGroup}, {"fsGroup", psc.FSGroup}} {
		if id.v == nil || *id.v != relayUser {
			t.Errorf("%s: pod securityContext.%s must be %d (the image's user; fsGroup lets it write the volume)", where, id.field, relayUser)
		}
	}
	if psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("%s: pod securityContext.seccompProfile.type must be RuntimeDefault", where)
	}

	c := relayContainer(t, d)
	cw := where + ": container " + c.Name
	if c.Image == relayImage || !strings.Contains(c.Image, "/") {
		t.Errorf("%s: image %q was not replaced by kustomization.yaml's images entry", cw, c.Image)
	}
	csc := c.SecurityContext
	if csc == nil {
		t.Fatalf("%s: has no securityContext", cw)
	}
	if csc.ReadOnlyRootFilesystem == nil || !*csc.ReadOnlyRootFilesystem {
		t.Errorf("%s: securityContext.readOnlyRootFilesystem must be true", cw)
	}
	if csc.AllowPrivilegeEscalation == nil || *csc.AllowPrivilegeEscalation {
		t.Errorf("%s: securityContext.allowPrivilegeEscalation must be false", cw)
	}
	if csc.Privileged != nil && *csc.Privileged {
		t.Errorf("%s: securityContext.privileged must not be true", cw)
	}
	if csc.Capabilities == nil || !slices.Contains(csc.Capabilities.Drop, "ALL") {
		t.Errorf("%s: securityContext.capabilities.drop must hold ALL", cw)
	} else if len(csc.Capabilities.Add) > 0 {
		t.Errorf("%s: securityContext.capabilities.add must be empty, has %v", cw, csc.Capabilities.Add)
	}
	if (csc.RunAsNonRoot != nil && !*csc.RunAsNonRoot) || (csc.RunAsUser != nil && *csc.RunAsUser != relayUser) {
		t.Errorf("%s: securityContext overrides the pod's user: runAsNonRoot and runAsUser %d hold for the relay too", cw, relayUser)
	}

	// The ports: the webhook's (the image's PORT), and /metrics on its own.
	if got := portNamed(c, "http"); got != webhookPort {
		t.Errorf("%s: the container port named http is %d, want %d (the image's PORT; the Service targets it by name)", cw, got, webhookPort)
	}
	for _, e := range c.Env {
		if e.Name == "PORT" && e.Value != strconv.Itoa(webhookPort) {
			t.Errorf("%s: env PORT %q moves the webhook off %d, where the ports and probes expect it", cw, e.Value, webhookPort)
		}
	}
	mp := metricsPort(t, d, c)
	if a := d.Spec.Template.Annotations; a["prometheus.io/scrape"] == "true" && a["prometheus.io/port"] != strconv.Itoa(int(mp)) {
		t.Errorf("%s: annotation prometheus.io/port is %q, want the metrics port %d", where, a["prometheus.io/port"], mp)
	}

	// The probes: httpGet /healthz on the webhook's port.
	for _, p := range []struct {
		name  string
		probe *corev1.Probe
	}{{"livenessProbe", c.LivenessProbe}, {"readinessProbe", c.ReadinessProbe}} {
		switch {
		case p.probe == nil:
			t.Errorf("%s: has no %s", cw, p.name)
		case p.probe.HTTPGet == nil:
			t.Errorf("%s: %s is not an httpGet (the image has no shell to exec a probe)", cw, p.name)
		case p.probe.HTTPGet.Path != healthPath:
			t.Errorf("%s: %s.httpGet.path is %q, want %s", cw, p.name, p.probe.HTTPGet.Path, healthPath)
		case containerPort(c, p.probe.HTTPGet.Port) != webhookPort:
			t.Errorf("%s: %s.httpGet.port %s is not the webhook's port %d: the probe must see what Join It reaches", cw, p.name, p.probe.HTTPGet.Port.String(), webhookPort)
		}
	}

	// The backend and the secrets: from a Secret, never a value here.
	named := 0
	for flagName, token := range backends {
		if _, ok := flagValue(c.Args, flagName); ok {
			named++
			if !slices.ContainsFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == token }) {
				t.Errorf("%s: -%s needs %s in env, from the Secret", cw, flagName, token)
			}
		}
	}
	if named != 1 {
		t.Errorf("%s: args name %d backends, want exactly one of -tfe-workspace and -github-workflow", cw, named)
	}
	if !slices.ContainsFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == secretEnv }) {
		t.Errorf("%s: env has no %s", cw, secretEnv)
	}
	for _, e := range c.Env {
		if e.Name == secretEnv || strings.HasSuffix(e.Name, "TOKEN") {
			if e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
				t.Errorf("%s: env %s must come from a Secret (valueFrom.secretKeyRef), never a value in the manifest", cw, e.Name)
			}
		}
	}
	if len(c.EnvFrom) > 0 {
		t.Errorf("%s: envFrom gives the relay every key of a source: name each variable with a secretKeyRef", cw)
	}

	// Resources: sized from the relay's measured peak.
	minLimit := resource.MustParse(minMemLimit)
	req, lim := c.Resources.Requests.Memory(), c.Resources.Limits.Memory()
	switch {
	case req.IsZero():
		t.Errorf("%s: resources.requests.memory is not set", cw)
	case lim.IsZero():
		t.Errorf("%s: resources.limits.memory is not set", cw)
	case lim.Cmp(minLimit) < 0:
		t.Errorf("%s: resources.limits.memory %s is below %s (the relay's accept benchmark bounds its peak RSS at 30 MB)", cw, lim, minMemLimit)
	case req.Cmp(*lim) > 0:
		t.Errorf("%s: resources.requests.memory %s is above its limit %s", cw, req, lim)
	}

	// The volume: a PersistentVolumeClaim of the build, at /data.
	checkVolume(t, d, c, objs)
}

func checkVolume(t *testing.T, d *appsv1.Deployment, c *corev1.Container, objs []object) {
	where := "Deployment " + d.Name
	i := slices.IndexFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool { return m.MountPath == dataMount })
	if i < 0 {
		t.Errorf("%s: container %s mounts nothing at %s: an owed run would be lost with the container", where, c.Name, dataMount)
		return
	}
	m := c.VolumeMounts[i]
	if m.ReadOnly {
		t.Errorf("%s: container %s mounts %s read-only", where, c.Name, dataMount)
	}
	vi := slices.IndexFunc(d.Spec.Template.Spec.Volumes, func(v corev1.Volume) bool { return v.Name == m.Name })
	if vi < 0 || d.Spec.Template.Spec.Volumes[vi].PersistentVolumeClaim == nil {
		t.Errorf("%s: volume %s at %s is not a persistentVolumeClaim: an owed run would be lost with the pod", where, m.Name, dataMount)
		return
	}
	claim := d.Spec.Template.Spec.Volumes[vi].PersistentVolumeClaim.ClaimName
	var pvc *corev1.PersistentVolumeClaim
	for _, o := range objs {
		if p, ok := o.obj.(*corev1.PersistentVolumeClaim); ok && p.Name == claim {
			pvc = p
		}
	}
	if pvc == nil {
		t.Errorf("%s: claim %s is not in the build", where, claim)
		return
	}
	if pvc.Spec.Resources.Requests.Storage().IsZero() {
		t.Errorf("PersistentVolumeClaim %s: requests no storage", pvc.Name)
	}
	// A rolling update that starts the new pod first, on a volume only one
	// node attaches, hangs when the new pod lands on another node.
	rwoOnly := len(pvc.Spec.AccessModes) > 0 && !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany)
	if ru := d.Spec.Strategy.RollingUpdate; rwoOnly && d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType && (ru == nil || ru.MaxSurge == nil || ru.MaxSurge.String() != "0") {
		t.Errorf("%s: a RollingUpdate with surge on the %v volume %s: its new pod, on another node, waits for the volume the old pod holds, and the rollout hangs; use Recreate (see the strategy's comment)", where, pvc.Spec.AccessModes, pvc.Name)
	}
}

// checkPodSecurity evaluates the pod against the level the namespace
// enforces (restricted), with Pod Security Admission's own checks.
func checkPodSecurity(t *testing.T, d *appsv1.Deployment, ns *corev1.Namespace) {
	levelName := ns.Labels[psaapi.EnforceLevelLabel]
	if levelName != string(psaapi.LevelRestricted) {
		t.Errorf("Namespace %s: label %s is %q, want restricted (the relay's pod meets it)", ns.Name, psaapi.EnforceLevelLabel, levelName)
		levelName = string(psaapi.LevelRestricted)
	}
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		t.Fatal(err)
	}
	lv := psaapi.LevelVersion{Level: psaapi.Level(levelName), Version: psaapi.LatestVersion()}
	for _, r := range evaluator.EvaluatePod(lv, &d.Spec.Template.ObjectMeta, &d.Spec.Template.Spec) {
		if !r.Allowed {
			t.Errorf("Deployment %s: the pod breaks Pod Security's %s profile: %s: %s", d.Name, levelName, r.ForbiddenReason, r.ForbiddenDetail)
		}
	}
}
