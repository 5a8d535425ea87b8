mod dkim;
