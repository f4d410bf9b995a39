package withtests
