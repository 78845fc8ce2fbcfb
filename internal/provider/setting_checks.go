package provider

import (
	"crypto/x509"
	"fmt"
	"os"
	"strings"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// baseURL applies the client's own rule (https, or http to loopback), so
// config-time and run-time checks cannot disagree.
var baseURL = tfattr.StringRule{Desc: "must be an absolute https URL (http only for loopback hosts)",
	Check: func(s string) error { _, err := client.ParseBaseURL(s); return err }}

// useCACertFile reads the PEM file of authorities to trust; the client
// refuses one that holds no certificate.
func useCACertFile(path string, fromEnv bool, c *configuration) *settingError {
	where := "ca_cert_file"
	if fromEnv {
		where = envCACertFile
	}
	pem, err := os.ReadFile(path)
	if err != nil {
		return &settingError{"Invalid ca_cert_file", fmt.Sprintf("%s: %v", where, err)}
	}
	if !x509.NewCertPool().AppendCertsFromPEM(pem) {
		return &settingError{"Invalid ca_cert_file", fmt.Sprintf("%s: %s holds no PEM certificate: it must hold \"-----BEGIN CERTIFICATE-----\" blocks", where, path)}
	}
	c.client.CACertPEM = pem
	return nil
}

// useOrganizationID takes the organization guard's id. A blank value is an
// error wherever it comes from: a CI variable that was never defined
// expands to "", and taken as "unset" it would turn the guard off without
// a word.
func useOrganizationID(v string, fromEnv bool, c *configuration) *settingError {
	if strings.TrimSpace(v) != "" {
		if mistake := exactMistake(v, false); mistake != "" {
			// Compared exactly with every record's organization_id: a
			// trailing newline would fail every read with two ids that
			// print alike.
			return exactValueError("organization_id", envOrganization, false, v, mistake, fromEnv)
		}
		c.client.OrganizationID = v
		return nil
	}
	if fromEnv {
		return &settingError{"Blank " + envOrganization,
			fmt.Sprintf("The %s environment variable is set to %q: set it to the organization's id (the records' organization_id), "+
				"or unset it to check nothing. A CI variable that was never defined expands to an empty value; "+
				"the organization guard is not turned off by one.", envOrganization, v)}
	}
	return &settingError{"Blank organization_id",
		fmt.Sprintf("organization_id is %q: set it to the organization's id (the records' organization_id), or leave it out to check nothing.", v)}
}
