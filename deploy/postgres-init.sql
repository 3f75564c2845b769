-- runs once, when the postgres volume is created: the gateways' state gets its own database
create database gateway;
