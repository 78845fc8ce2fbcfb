package manifests

import (
	"strings"
	"testing"
)

// TestDecoderIsStrict proves the decoder the checks use refuses what a
// lenient one lets through: a misspelt field (one whose case alone differs
// is accepted by Go's encoding/json, and so by sigs.k8s.io/yaml's
// UnmarshalStrict), an unknown field and a key given twice, each named
// with its path.
func TestDecoderIsStrict(t *testing.T) {
	const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: strict
spec:
  selector:
    matchLabels: {app: strict}
  template:
    metadata:
      labels: {app: strict}
    spec:
      containers:
        - name: c
          image: example
          securityContext:
`
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"case", deployment + "            readOnlyRootFileSystem: true\n", `unknown field "spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem"`},
		{"unknown", deployment + "            runAsNonRooot: true\n", `unknown field "spec.template.spec.containers[0].securityContext.runAsNonRooot"`},
		{"duplicate", deployment + "            readOnlyRootFilesystem: true\n            readOnlyRootFilesystem: false\n", `"readOnlyRootFilesystem" already set`},
		{"kind", "apiVersion: v1\nkind: Secrett\nmetadata: {name: x}\n", `no kind "Secrett" is registered`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeStrict([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("decoding %s: error %v, want one containing %s", tc.name, err, tc.want)
			}
		})
	}
	if _, err := decodeStrict([]byte(deployment + "            readOnlyRootFilesystem: true\n")); err != nil {
		t.Errorf("a valid Deployment: %v", err)
	}
}
