
/tmp/tmpzw6srqzd:     file format binary


Disassembly of section .data:

00007feef0edf580 <.data>:
    7feef0edf580:	89 84 24 00 c0 fe ff 	mov    %eax,-0x14000(%rsp)
    7feef0edf587:	55                   	push   %rbp
    7feef0edf588:	48 81 ec 80 00 00 00 	sub    $0x80,%rsp
    7feef0edf58f:	48 89 4c 24 28       	mov    %rcx,0x28(%rsp)
    7feef0edf594:	48 8b ea             	mov    %rdx,%rbp
    7feef0edf597:	4c 8b de             	mov    %rsi,%r11
    7feef0edf59a:	44 8b 56 08          	mov    0x8(%rsi),%r10d
    7feef0edf59e:	41 81 fa b8 b7 04 01 	cmp    $0x104b7b8,%r10d
    7feef0edf5a5:	0f 85 d5 03 00 00    	jne    0x7feef0edf980
    7feef0edf5ab:	4c 89 1c 24          	mov    %r11,(%rsp)
    7feef0edf5af:	49 8b f3             	mov    %r11,%rsi
    7feef0edf5b2:	90                   	nop
    7feef0edf5b3:	e8 c8 a0 aa ff       	call   0x7feef0989680
    7feef0edf5b8:	48 89 44 24 18       	mov    %rax,0x18(%rsp)
    7feef0edf5bd:	4c 8b c5             	mov    %rbp,%r8
    7feef0edf5c0:	49 83 f8 01          	cmp    $0x1,%r8
    7feef0edf5c4:	0f 8c 30 03 00 00    	jl     0x7feef0edf8fa
    7feef0edf5ca:	41 ba 01 00 00 00    	mov    $0x1,%r10d
    7feef0edf5d0:	4d 3b d0             	cmp    %r8,%r10
    7feef0edf5d3:	bd ff ff ff ff       	mov    $0xffffffff,%ebp
    7feef0edf5d8:	7c 08                	jl     0x7feef0edf5e2
    7feef0edf5da:	40 0f 95 c5          	setne  %bpl
    7feef0edf5de:	40 0f b6 ed          	movzbl %bpl,%ebp
    7feef0edf5e2:	4c 8b 54 24 28       	mov    0x28(%rsp),%r10
    7feef0edf5e7:	4d 85 d2             	test   %r10,%r10
    7feef0edf5ea:	0f 84 71 03 00 00    	je     0x7feef0edf961
    7feef0edf5f0:	49 ba fe ff ff ff ff 	movabs $0x7ffffffffffffffe,%r10
    7feef0edf5f7:	ff ff 7f 
    7feef0edf5fa:	4d 3b c2             	cmp    %r10,%r8
    7feef0edf5fd:	0f 8f 6d 03 00 00    	jg     0x7feef0edf970
    7feef0edf603:	49 8b c8             	mov    %r8,%rcx
    7feef0edf606:	48 83 c1 01          	add    $0x1,%rcx
    7feef0edf60a:	49 ba 28 6c 48 87 06 	movabs $0x687486c28,%r10
    7feef0edf611:	00 00 00 
    7feef0edf614:	bb 01 00 00 00       	mov    $0x1,%ebx
    7feef0edf619:	eb 32                	jmp    0x7feef0edf64d
    7feef0edf61b:	48 03 da             	add    %rdx,%rbx
    7feef0edf61e:	48 83 c3 01          	add    $0x1,%rbx
    7feef0edf622:	48 3b d9             	cmp    %rcx,%rbx
    7feef0edf625:	0f 8d cf 02 00 00    	jge    0x7feef0edf8fa
    7feef0edf62b:	4c 8b d3             	mov    %rbx,%r10
    7feef0edf62e:	49 ff ca             	dec    %r10
    7feef0edf631:	4d 0f b7 d2          	movzwq %r10w,%r10
    7feef0edf635:	49 bb 28 6c 48 87 06 	movabs $0x687486c28,%r11
      ;   {oop(a 'java/lang/Long'[65536] {0x0000000687486c28})}
    7feef0edf63c:	00 00 00 
    7feef0edf63f:	49 b9 28 6c 48 87 06 	movabs $0x687486c28,%r9
    7feef0edf646:	00 00 00 
    7feef0edf649:	4f 8d 14 91          	lea    (%r9,%r10,4),%r10
    7feef0edf64d:	45 8b 4a 10          	mov    0x10(%r10),%r9d
    7feef0edf651:	45 85 c9             	test   %r9d,%r9d
    7feef0edf654:	0f 84 f2 01 00 00    	je     0x7feef0edf84c
    7feef0edf65a:	4c 8b 54 24 28       	mov    0x28(%rsp),%r10
    7feef0edf65f:	45 8b 9a 8c 00 00 00 	mov    0x8c(%r10),%r11d
    7feef0edf666:	49 8b b2 90 00 00 00 	mov    0x90(%r10),%rsi
    7feef0edf66d:	49 8b 92 20 01 00 00 	mov    0x120(%r10),%rdx
    7feef0edf674:	49 3b 92 28 01 00 00 	cmp    0x128(%r10),%rdx
    7feef0edf67b:	0f 8d fb 01 00 00    	jge    0x7feef0edf87c
    7feef0edf681:	48 23 f2             	and    %rdx,%rsi
    7feef0edf684:	49 8b c0             	mov    %r8,%rax
    7feef0edf687:	48 2b c3             	sub    %rbx,%rax
    7feef0edf68a:	48 83 c2 01          	add    $0x1,%rdx
    7feef0edf68e:	48 83 c0 01          	add    $0x1,%rax
    7feef0edf692:	33 ff                	xor    %edi,%edi
    7feef0edf694:	48 3b cb             	cmp    %rbx,%rcx
    7feef0edf697:	48 0f 4c c7          	cmovl  %rdi,%rax
    7feef0edf69b:	48 8b fb             	mov    %rbx,%rdi
    7feef0edf69e:	48 83 c7 01          	add    $0x1,%rdi
    7feef0edf6a2:	48 81 f8 fd ff ff 7f 	cmp    $0x7ffffffd,%rax
    7feef0edf6a9:	41 ba fd ff ff 7f    	mov    $0x7ffffffd,%r10d
    7feef0edf6af:	49 0f 47 c2          	cmova  %r10,%rax
    7feef0edf6b3:	4f 8d 14 dc          	lea    (%r12,%r11,8),%r10
    7feef0edf6b7:	4d 8d 54 b2 10       	lea    0x10(%r10,%rsi,4),%r10
    7feef0edf6bc:	45 89 0a             	mov    %r9d,(%r10)
    7feef0edf6bf:	8b e8                	mov    %eax,%ebp
    7feef0edf6c1:	49 c1 ea 09          	shr    $0x9,%r10
    7feef0edf6c5:	49 bb 00 70 1f 03 ef 	movabs $0x7fef031f7000,%r11
    7feef0edf6cc:	7f 00 00 
    7feef0edf6cf:	47 88 24 13          	mov    %r12b,(%r11,%r10,1)
    7feef0edf6d3:	4c 8b 54 24 28       	mov    0x28(%rsp),%r10
    7feef0edf6d8:	49 89 92 20 01 00 00 	mov    %rdx,0x120(%r10)
    7feef0edf6df:	4d 8b 97 48 03 00 00 	mov    0x348(%r15),%r10
    7feef0edf6e6:	41 85 02             	test   %eax,(%r10)
    7feef0edf6e9:	83 fd 01             	cmp    $0x1,%ebp
    7feef0edf6ec:	0f 8e 00 02 00 00    	jle    0x7feef0edf8f2
    7feef0edf6f2:	41 bb 01 00 00 00    	mov    $0x1,%r11d
    7feef0edf6f8:	eb 73                	jmp    0x7feef0edf76d
    7feef0edf6fa:	4c 8b 44 24 08       	mov    0x8(%rsp),%r8
    7feef0edf6ff:	48 8b 5c 24 10       	mov    0x10(%rsp),%rbx
    7feef0edf704:	48 8b 4c 24 20       	mov    0x20(%rsp),%rcx
    7feef0edf709:	44 8b 4c 24 30       	mov    0x30(%rsp),%r9d
    7feef0edf70e:	8b 6c 24 34          	mov    0x34(%rsp),%ebp
    7feef0edf712:	44 8b 5c 24 38       	mov    0x38(%rsp),%r11d
    7feef0edf717:	48 8b 54 24 48       	mov    0x48(%rsp),%rdx
    7feef0edf71c:	48 8b 74 24 58       	mov    0x58(%rsp),%rsi
    7feef0edf721:	48 8b 44 24 60       	mov    0x60(%rsp),%rax
    7feef0edf726:	44 8b 54 24 3c       	mov    0x3c(%rsp),%r10d
    7feef0edf72b:	0f 1f 44 00 00       	nopl   0x0(%rax,%rax,1)
    7feef0edf730:	48 23 f0             	and    %rax,%rsi
    7feef0edf733:	48 83 c0 01          	add    $0x1,%rax
    7feef0edf737:	49 c1 e2 03          	shl    $0x3,%r10
    7feef0edf73b:	4d 8d 54 b2 10       	lea    0x10(%r10,%rsi,4),%r10
    7feef0edf740:	45 89 0a             	mov    %r9d,(%r10)
    7feef0edf743:	49 c1 ea 09          	shr    $0x9,%r10
    7feef0edf747:	49 b9 00 70 1f 03 ef 	movabs $0x7fef031f7000,%r9
    7feef0edf74e:	7f 00 00 
    7feef0edf751:	47 88 24 11          	mov    %r12b,(%r9,%r10,1)
    7feef0edf755:	4c 8b 54 24 28       	mov    0x28(%rsp),%r10
    7feef0edf75a:	49 89 82 20 01 00 00 	mov    %rax,0x120(%r10)
    7feef0edf761:	41 ff c3             	inc    %r11d
    7feef0edf764:	44 3b dd             	cmp    %ebp,%r11d
    7feef0edf767:	0f 8d ae fe ff ff    	jge    0x7feef0edf61b
    7feef0edf76d:	49 63 d3             	movslq %r11d,%rdx
    7feef0edf770:	48 8b fa             	mov    %rdx,%rdi
    7feef0edf773:	48 03 fb             	add    %rbx,%rdi
    7feef0edf776:	4c 8b d7             	mov    %rdi,%r10
    7feef0edf779:	49 ff ca             	dec    %r10
    7feef0edf77c:	4d 0f b7 d2          	movzwq %r10w,%r10
      ;   {oop(a 'java/lang/Long'[65536] {0x0000000687486c28})}
    7feef0edf780:	49 b9 28 6c 48 87 06 	movabs $0x687486c28,%r9
    7feef0edf787:	00 00 00 
    7feef0edf78a:	47 8b 4c 91 10       	mov    0x10(%r9,%r10,4),%r9d
    7feef0edf78f:	45 85 c9             	test   %r9d,%r9d
    7feef0edf792:	0f 84 b7 00 00 00    	je     0x7feef0edf84f
    7feef0edf798:	4c 8b 54 24 28       	mov    0x28(%rsp),%r10
    7feef0edf79d:	49 8b b2 90 00 00 00 	mov    0x90(%r10),%rsi
    7feef0edf7a4:	49 8b 82 20 01 00 00 	mov    0x120(%r10),%rax
    7feef0edf7ab:	45 8b 92 8c 00 00 00 	mov    0x8c(%r10),%r10d
    7feef0edf7b2:	4c 8b 6c 24 28       	mov    0x28(%rsp),%r13
    7feef0edf7b7:	49 3b 85 28 01 00 00 	cmp    0x128(%r13),%rax
    7feef0edf7be:	0f 8c 6c ff ff ff    	jl     0x7feef0edf730
    7feef0edf7c4:	44 89 54 24 3c       	mov    %r10d,0x3c(%rsp)
    7feef0edf7c9:	48 89 44 24 60       	mov    %rax,0x60(%rsp)
    7feef0edf7ce:	48 89 74 24 58       	mov    %rsi,0x58(%rsp)
    7feef0edf7d3:	48 89 7c 24 50       	mov    %rdi,0x50(%rsp)
    7feef0edf7d8:	48 89 54 24 48       	mov    %rdx,0x48(%rsp)
    7feef0edf7dd:	44 89 5c 24 38       	mov    %r11d,0x38(%rsp)
    7feef0edf7e2:	89 6c 24 34          	mov    %ebp,0x34(%rsp)
    7feef0edf7e6:	48 89 4c 24 20       	mov    %rcx,0x20(%rsp)
    7feef0edf7eb:	48 89 5c 24 10       	mov    %rbx,0x10(%rsp)
    7feef0edf7f0:	4c 89 44 24 08       	mov    %r8,0x8(%rsp)
    7feef0edf7f5:	4f 8d 14 cc          	lea    (%r12,%r9,8),%r10
    7feef0edf7f9:	4c 89 54 24 40       	mov    %r10,0x40(%rsp)
    7feef0edf7fe:	44 89 4c 24 30       	mov    %r9d,0x30(%rsp)
    7feef0edf803:	8b 6c 24 3c          	mov    0x3c(%rsp),%ebp
    7feef0edf807:	48 8b d5             	mov    %rbp,%rdx
    7feef0edf80a:	48 c1 e2 03          	shl    $0x3,%rdx
    7feef0edf80e:	48 8b 74 24 28       	mov    0x28(%rsp),%rsi
    7feef0edf813:	48 8b 4c 24 58       	mov    0x58(%rsp),%rcx
      ;   {optimized virtual_call}
    7feef0edf818:	4c 8b c0             	mov    %rax,%r8
    7feef0edf81b:	e8 60 9e aa ff       	call   0x7feef0989680
    7feef0edf820:	85 c0                	test   %eax,%eax
    7feef0edf822:	0f 85 d2 fe ff ff    	jne    0x7feef0edf6fa
    7feef0edf828:	be 45 ff ff ff       	mov    $0xffffff45,%esi
    7feef0edf82d:	48 8b 2c 24          	mov    (%rsp),%rbp
    7feef0edf831:	48 ff 74 24 08       	rex.W push 0x8(%rsp)
    7feef0edf836:	48 8f 04 24          	rex.W pop (%rsp)
    7feef0edf83a:	4c 8b 54 24 18       	mov    0x18(%rsp),%r10
    7feef0edf83f:	4c 89 54 24 10       	mov    %r10,0x10(%rsp)
      ;   {runtime_call UncommonTrapBlob}
    7feef0edf844:	66 66 90             	data16 xchg %ax,%ax
    7feef0edf847:	e8 34 1f ab ff       	call   0x7feef0991780
    7feef0edf84c:	48 8b fb             	mov    %rbx,%rdi
    7feef0edf84f:	be 45 ff ff ff       	mov    $0xffffff45,%esi
    7feef0edf854:	48 8b 2c 24          	mov    (%rsp),%rbp
    7feef0edf858:	4c 89 04 24          	mov    %r8,(%rsp)
    7feef0edf85c:	4c 8b 54 24 18       	mov    0x18(%rsp),%r10
    7feef0edf861:	4c 89 54 24 10       	mov    %r10,0x10(%rsp)
    7feef0edf866:	48 89 7c 24 18       	mov    %rdi,0x18(%rsp)
    7feef0edf86b:	44 89 4c 24 24       	mov    %r9d,0x24(%rsp)
    7feef0edf870:	44 89 4c 24 30       	mov    %r9d,0x30(%rsp)
    7feef0edf875:	66 90                	xchg   %ax,%ax
    7feef0edf877:	e8 04 1f ab ff       	call   0x7feef0991780
    7feef0edf87c:	48 89 54 24 38       	mov    %rdx,0x38(%rsp)
    7feef0edf881:	48 89 74 24 30       	mov    %rsi,0x30(%rsp)
    7feef0edf886:	48 89 4c 24 10       	mov    %rcx,0x10(%rsp)
    7feef0edf88b:	48 8b eb             	mov    %rbx,%rbp
    7feef0edf88e:	4c 89 44 24 08       	mov    %r8,0x8(%rsp)
    7feef0edf893:	4f 8d 14 cc          	lea    (%r12,%r9,8),%r10
    7feef0edf897:	4c 89 54 24 40       	mov    %r10,0x40(%rsp)
    7feef0edf89c:	44 89 4c 24 20       	mov    %r9d,0x20(%rsp)
    7feef0edf8a1:	49 8b d3             	mov    %r11,%rdx
    7feef0edf8a4:	48 c1 e2 03          	shl    $0x3,%rdx
    7feef0edf8a8:	44 89 5c 24 24       	mov    %r11d,0x24(%rsp)
    7feef0edf8ad:	48 8b 74 24 28       	mov    0x28(%rsp),%rsi
    7feef0edf8b2:	48 8b 4c 24 30       	mov    0x30(%rsp),%rcx
    7feef0edf8b7:	4c 8b 44 24 38       	mov    0x38(%rsp),%r8
      ;   {optimized virtual_call}
    7feef0edf8bc:	66 66 90             	data16 xchg %ax,%ax
    7feef0edf8bf:	e8 bc 9d aa ff       	call   0x7feef0989680
    7feef0edf8c4:	85 c0                	test   %eax,%eax
    7feef0edf8c6:	0f 84 e9 00 00 00    	je     0x7feef0edf9b5
    7feef0edf8cc:	4c 8b 44 24 08       	mov    0x8(%rsp),%r8
    7feef0edf8d1:	48 8b dd             	mov    %rbp,%rbx
    7feef0edf8d4:	48 8b 4c 24 10       	mov    0x10(%rsp),%rcx
    7feef0edf8d9:	44 8b 4c 24 20       	mov    0x20(%rsp),%r9d
    7feef0edf8de:	44 8b 5c 24 24       	mov    0x24(%rsp),%r11d
    7feef0edf8e3:	48 8b 74 24 30       	mov    0x30(%rsp),%rsi
    7feef0edf8e8:	48 8b 54 24 38       	mov    0x38(%rsp),%rdx
    7feef0edf8ed:	e9 8f fd ff ff       	jmp    0x7feef0edf681
    7feef0edf8f2:	48 8b df             	mov    %rdi,%rbx
    7feef0edf8f5:	e9 28 fd ff ff       	jmp    0x7feef0edf622
    7feef0edf8fa:	4c 8b 54 24 28       	mov    0x28(%rsp),%r10
    7feef0edf8ff:	4d 85 d2             	test   %r10,%r10
    7feef0edf902:	0f 84 b7 00 00 00    	je     0x7feef0edf9bf
    7feef0edf908:	48 8b 74 24 28       	mov    0x28(%rsp),%rsi
    7feef0edf90d:	48 ba 70 ca 84 87 06 	movabs $0x68784ca70,%rdx
      ;   {optimized virtual_call}
    7feef0edf914:	00 00 00 
    7feef0edf917:	e8 64 9d aa ff       	call   0x7feef0989680
    7feef0edf91c:	85 c0                	test   %eax,%eax
    7feef0edf91e:	0f 84 6c 00 00 00    	je     0x7feef0edf990
    7feef0edf924:	48 8b 34 24          	mov    (%rsp),%rsi
    7feef0edf928:	48 8b 6c 24 18       	mov    0x18(%rsp),%rbp
    7feef0edf92d:	66 90                	xchg   %ax,%ax
    7feef0edf92f:	e8 4c 9d aa ff       	call   0x7feef0989680
      ;   {oop(a 'java/lang/Class'{0x0000000687486088} = 'Probe2')}
    7feef0edf934:	48 2b c5             	sub    %rbp,%rax
    7feef0edf937:	49 ba 88 60 48 87 06 	movabs $0x687486088,%r10
    7feef0edf93e:	00 00 00 
    7feef0edf941:	49 89 42 78          	mov    %rax,0x78(%r10)
    7feef0edf945:	f0                   	lock
    7feef0edf946:	83                   	.byte 0x83

