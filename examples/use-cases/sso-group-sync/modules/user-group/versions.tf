terraform {
  # terraform_data needs Terraform 1.4 or later; the provider is tested on
  # 1.5 and later.
  required_version = ">= 1.5"
}
