terraform {
  # terraform_data needs Terraform 1.4 or later.
  required_version = ">= 1.4"
}
