package manifests

import (
	"slices"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func checkService(t *testing.T, svc *corev1.Service, d *appsv1.Deployment) {
	where := "Service " + svc.Name
	c := relayContainer(t, d)
	if !labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(d.Spec.Template.Labels)) || len(svc.Spec.Selector) == 0 {
		t.Errorf("%s: selector %v does not select the relay's pod (labels %v)", where, svc.Spec.Selector, d.Spec.Template.Labels)
	}
	if len(svc.Spec.Ports) == 0 {
		t.Errorf("%s: has no port", where)
	}
	for _, p := range svc.Spec.Ports {
		target := p.TargetPort
		if target.Type == intstr.Int && target.IntVal == 0 {
			target = intstr.FromInt32(p.Port)
		}
		if got := containerPort(c, target); got != webhookPort {
			t.Errorf("%s: port %s (%d) targets %s, not the webhook's port %d: the Service exposes the webhook alone, never /metrics", where, p.Name, p.Port, target.String(), webhookPort)
		}
	}
	if svc.Spec.Type != "" && svc.Spec.Type != corev1.ServiceTypeClusterIP {
		t.Errorf("%s: type %s: reach the relay from outside through the Ingress, which routes /hooks/ alone", where, svc.Spec.Type)
	}
}

// checkOptionalFiles checks the files kustomization.yaml does not apply
// against the Deployment it builds: the Secret template, the
// NetworkPolicy, the PodMonitor and the Ingress.
func checkOptionalFiles(t *testing.T, files, built []object) {
	d, _ := only[*appsv1.Deployment](t, built, "Deployment")
	c := relayContainer(t, d)
	svc, _ := only[*corev1.Service](t, built, "Service")
	podLabels := labels.Set(d.Spec.Template.Labels)

	s, so := only[*corev1.Secret](t, files, "Secret template")
	for k, v := range s.Data {
		if len(v) > 0 {
			t.Errorf("%s: data.%s holds a value: the template holds none", so, k)
		}
	}
	for k, v := range s.StringData {
		if v != "" {
			t.Errorf("%s: stringData.%s holds a value: the template holds none", so, k)
		}
	}
	for _, e := range c.Env {
		if e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
			continue
		}
		ref := e.ValueFrom.SecretKeyRef
		_, inData := s.Data[ref.Key]
		_, inString := s.StringData[ref.Key]
		if ref.Name != s.Name || !(inData || inString) {
			t.Errorf("%s: env %s reads Secret %s key %s, which the template (Secret %s) does not show", "Deployment "+d.Name, e.Name, ref.Name, ref.Key, s.Name)
		}
	}

	mp := portNamed(c, "metrics") // checked against -metrics-listen by checkDeployment
	for _, o := range files {
		switch obj := o.obj.(type) {
		case *networkingv1.NetworkPolicy:
			checkNetworkPolicy(t, o, obj, c, podLabels, mp)
		case *monitoringv1.PodMonitor:
			sel, err := metav1LabelSelector(obj.Spec.Selector)
			if err != nil || !sel.Matches(podLabels) {
				t.Errorf("%s: selector does not select the relay's pod (labels %v)", o, podLabels)
			}
			if len(obj.Spec.PodMetricsEndpoints) == 0 {
				t.Errorf("%s: has no podMetricsEndpoints", o)
			}
			for _, ep := range obj.Spec.PodMetricsEndpoints {
				if ep.Port == nil || portNamed(c, *ep.Port) != mp {
					t.Errorf("%s: endpoint port %v is not the container's metrics port (named metrics, %d)", o, ptrString(ep.Port), mp)
				}
				if ep.Path != "" && ep.Path != "/metrics" {
					t.Errorf("%s: endpoint path %q, want /metrics", o, ep.Path)
				}
			}
		case *networkingv1.Ingress:
			checkIngress(t, o, obj, svc)
		}
	}
}

func metav1LabelSelector(s metav1.LabelSelector) (labels.Selector, error) {
	return metav1.LabelSelectorAsSelector(&s)
}

func ptrString(p *string) string {
	if p == nil {
		return "(none)"
	}
	return *p
}

func checkNetworkPolicy(t *testing.T, o object, np *networkingv1.NetworkPolicy, c *corev1.Container, podLabels labels.Set, metricsPort int32) {
	sel, err := metav1LabelSelector(np.Spec.PodSelector)
	if err != nil || !sel.Matches(podLabels) || sel.Empty() {
		t.Errorf("%s: podSelector does not select the relay's pod alone (labels %v)", o, podLabels)
	}
	var ingressPorts []int32
	for _, rule := range np.Spec.Ingress {
		if len(rule.Ports) == 0 {
			t.Errorf("%s: an ingress rule names no port: it opens every port of the pod", o)
		}
		for _, p := range rule.Ports {
			if p.Port == nil {
				t.Errorf("%s: an ingress port names no port: it opens every port", o)
				continue
			}
			n := containerPort(c, *p.Port)
			if n != webhookPort && n != metricsPort {
				t.Errorf("%s: ingress port %s is neither the webhook's (%d) nor the metrics port (%d)", o, p.Port.String(), webhookPort, metricsPort)
			}
			ingressPorts = append(ingressPorts, n)
		}
	}
	for _, want := range []int32{webhookPort, metricsPort} {
		if !slices.Contains(ingressPorts, want) {
			t.Errorf("%s: no ingress rule lets port %d in", o, want)
		}
	}
	if !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeEgress) {
		t.Errorf("%s: policyTypes lacks Egress: the relay could reach anything", o)
	}
	var egressPorts []string
	for _, rule := range np.Spec.Egress {
		for _, p := range rule.Ports {
			if p.Port != nil {
				egressPorts = append(egressPorts, p.Port.String())
			}
		}
		if len(rule.Ports) == 0 {
			t.Errorf("%s: an egress rule names no port: it lets the relay reach every port", o)
		}
	}
	for _, want := range []string{"443", "53"} {
		if !slices.Contains(egressPorts, want) {
			t.Errorf("%s: egress does not allow port %s (DNS, and HTTPS to GitHub or HCP Terraform)", o, want)
		}
	}
}

func checkIngress(t *testing.T, o object, ing *networkingv1.Ingress, svc *corev1.Service) {
	if ing.Spec.DefaultBackend != nil {
		t.Errorf("%s: has a defaultBackend: every path would reach the relay, not /hooks/ alone", o)
	}
	paths := 0
	for _, rule := range ing.Spec.Rules {
		if rule.HTTP == nil {
			continue
		}
		for _, p := range rule.HTTP.Paths {
			paths++
			if !strings.HasPrefix(p.Path, "/hooks/") || p.PathType == nil || *p.PathType != networkingv1.PathTypePrefix {
				t.Errorf("%s: path %q (%v) routes more than /hooks/: /metrics and /healthz stay inside the cluster", o, p.Path, p.PathType)
			}
			b := p.Backend.Service
			if b == nil || b.Name != svc.Name || !slices.ContainsFunc(svc.Spec.Ports, func(sp corev1.ServicePort) bool {
				return sp.Name == b.Port.Name || (b.Port.Number != 0 && sp.Port == b.Port.Number)
			}) {
				t.Errorf("%s: path %q has a backend other than Service %s's port", o, p.Path, svc.Name)
			}
		}
	}
	if paths == 0 {
		t.Errorf("%s: routes no path", o)
	}
}
